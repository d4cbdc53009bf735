# lit configuration of the dIPC test suite.
import os

import lit.formats

config.name = "dIPC"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dipc_obj_root, "test")

# FileCheck, not, opt, llc ... from LLVM 19; the driver from this build.
config.environment["PATH"] = os.pathsep.join(
    [config.dipc_bin_dir, config.llvm_tools_dir, config.environment["PATH"]]
)

tools = config.llvm_tools_dir
lib = config.dipc_lib_dir
config.substitutions += [
    ("%dipc-clangxx", os.path.join(config.dipc_bin_dir, "dipc-clang++")),
    ("%dipc-clang", os.path.join(config.dipc_bin_dir, "dipc-clang")),
    ("%clang", os.path.join(tools, "clang")),
    ("%attrs-plugin", os.path.join(lib, "DipcAttrs.so")),
    ("%pass-plugin", os.path.join(lib, "DipcPass.so")),
    ("%dipc-include", config.dipc_include_dir),
    ("%dipc-lib-dir", lib),
    ("%dipc-bin-dir", config.dipc_bin_dir),
    ("%examples", os.path.join(config.dipc_src_root, "examples")),
    ("%scripts", os.path.join(config.dipc_src_root, "scripts")),
]
# The metadata dumper (tools/dipc-readelf.cpp).
config.substitutions.append(
    ("%dipc-readelf", os.path.join(config.dipc_bin_dir, "dipc-readelf")))

# Runtime unit tests (test/rt): a C program linked against libdipc.
config.substitutions.append(
    ("%rt-cc", "%s -O2 -g -fno-stack-protector -I%s -I%s -L%s -Wl,-rpath,%s "
     "-ldipc -lpthread" % (os.path.join(tools, "clang"), config.dipc_include_dir,
                           os.path.join(config.test_source_root, "rt", "Inputs"),
                           lib, lib)))
# DIPC_NO_PKU=1 (scripts/test.sh's no-pku lane): the runtime acts as on a
# CPU without protection keys, so the tests that need them do not run.
no_pku = os.environ.get("DIPC_NO_PKU")
if no_pku is not None:
    config.environment["DIPC_NO_PKU"] = no_pku
# Protection keys usable here (CPU pku + OS ospke): the mpk tests need them.
# Where they are missing, scripts/test.sh runs those tests in the VM lane.
with open("/proc/cpuinfo") as cpuinfo:
    if {"pku", "ospke"} <= set(cpuinfo.read().split()) and no_pku != "1":
        config.available_features.add("pku")
config.substitutions.append(
    ("%rt-cxx", "%s -O2 -g -fno-stack-protector -I%s -I%s -L%s -Wl,-rpath,%s "
     "-ldipc -lpthread" % (os.path.join(tools, "clang++"),
                           config.dipc_include_dir,
                           os.path.join(config.test_source_root, "rt", "Inputs"),
                           lib, lib)))
# examples/sqlite-domain, built when its SQLite source was fetched
# (examples/sqlite-domain/fetch.py); its tests are unsupported otherwise.
sqlite_example = os.path.join(config.dipc_obj_root, "examples", "sqlite-domain")
if os.path.exists(os.path.join(sqlite_example, "sqlite-domain")):
    config.available_features.add("sqlite-example")
config.substitutions.append(("%sqlite-example", sqlite_example))
# The benchmark programs (bench/), not built with -DDIPC_BENCHMARKS=OFF: a
# test that runs one says `REQUIRES: benchmarks`.
if config.dipc_benchmarks:
    config.available_features.add("benchmarks")
# libdipc's C objects, one a line (rt/CMakeLists.txt): the layering check.
config.substitutions.append(
    ("%rt-c-objects",
     os.path.join(config.dipc_obj_root, "rt", "c-objects.txt")))
