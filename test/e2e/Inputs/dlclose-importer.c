#include <dipc.h>
int plugin_add(int x) __dom("plugin") __entry;
int importer_call(int x) { return plugin_add(x); }
