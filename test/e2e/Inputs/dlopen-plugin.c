#include <dipc.h>
int plugin_total __dom("plugin");
int plugin_add(int x) __dom("plugin") __entry { plugin_total += x; return plugin_total; }
