/* ledger.h - the ledger domain's public interface: its one entry. */
#ifndef LEDGER_H
#define LEDGER_H
#include <dipc.h>

/* Adds amount to the balance the ledger keeps in its own memory (domain
 * ledger, which the caller cannot read) and returns the new balance. */
long ledger_deposit(long amount) __dom("ledger") __entry
    __iso_callee(reg_confidentiality);
#endif
