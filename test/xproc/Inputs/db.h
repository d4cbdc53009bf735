/* db.h - the interface both programs of the cross-process tests compile:
 * the server defines these entries of domain db, the client imports them. */
#ifndef XPROC_DB_H
#define XPROC_DB_H
#include <dipc.h>

#ifdef DB_WRONG_SIGNATURE
__dom("db") __entry long db_add(long a, double b);
#else
__dom("db") __entry long db_add(long a, long b);
#endif
/* a + 2b + 3c + ... + 10j: the last four arguments on the stack. */
__dom("db") __entry long db_weigh10(long a, long b, long c, long d, long e,
                                    long f, long g, long h, long i, long j);
/* getpid() as the entry's code sees it. */
__dom("db") __entry long db_pid(void);
/* Opens a file in the entry's process; its descriptor number. */
__dom("db") __entry long db_open(void);
/* Whether fd is open in the entry's process (1) or not (0). */
__dom("db") __entry long db_fd_open(long fd);
/* The Pid: line of /proc/self/status, read through the descriptor db_open
 * returned. */
__dom("db") __entry long db_status_pid(long fd);
/* Reads the table the server built in main; mallocs and frees on the way. */
__dom("db") __entry long db_lookup(long key);
/* Sleeps ms milliseconds (nanosleep, a system call of the entry's
 * process); 0. */
__dom("db") __entry long db_sleep(long ms);
/* Spins ms milliseconds in the entry's code, without a system call; 0. */
__dom("db") __entry long db_spin(long ms);
/* clock_gettime(CLOCK_REALTIME) seconds, as the entry's code reads them
 * (through its libc's vDSO). */
__dom("db") __entry long db_time(void);
/* The address of a secret of domain db (the server's private data). */
__dom("db") __entry const char *db_secret_address(void);
/* Crashes (a null write). */
__dom("db") __entry long db_crash(void);
#endif
