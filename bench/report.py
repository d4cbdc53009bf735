#!/usr/bin/env python3
"""report.py - turns the JSON of one benchmark run into a Markdown report and
plots in the spirit of the paper's Figures 5 and 6.

    report.py --machine NAME --out bench/results [--note TEXT]
              [--missing "figures: reason" ...] RUN.json...

Each JSON file is the output of one benchmark program (one process). Every
program measures its own baselines (baseline/function_call,
baseline/syscall_getppid, sweep/function_call), so every ratio to a baseline
below divides two numbers from the same process. Comparisons between dIPC
and Linux IPC divide numbers from two programs of the same suite run.

Writes NAME.md, NAME-fig5.png and NAME-fig6.png into --out.
"""

import argparse
import json
import os
import platform
import re
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
SIZE_RE = re.compile(r"/bytes:(\d+)$")

HEAP_PAIRS_PER_CALL = 256  # bench/heap_entries.h

PRIMITIVES = [  # (name in the benchmark, label in the paper's style)
    ("semaphore", "Sem."),
    ("pipe", "Pipe"),
    ("rpc", "RPC"),
]
PLACEMENTS = [("same_cpu", "=CPU"), ("cross_cpu", "≠CPU")]
POLICIES = [("low", "Low"), ("high", "High")]


class Run:
    """The results of one benchmark program: name -> {mean, stddev} in ns."""

    def __init__(self, path):
        with open(path) as f:
            data = json.load(f)
        self.path = path
        self.context = data["context"]
        self.program = os.path.basename(self.context.get("executable", path))
        self.backend = self.context.get("dipc_backend")
        # "shared": proxies without the stack switch (DIPC_SHARED_STACKS=1).
        self.shared_stacks = self.context.get("dipc_stacks") == "shared"
        self.results = {}
        self.errors = []
        for b in data["benchmarks"]:
            name = b.get("run_name", b["name"]).replace("/real_time", "")
            if b.get("error_occurred"):
                self.errors.append(f"{name}: {b.get('error_message', '?')}")
                continue
            if b.get("run_type") == "aggregate":
                kind = b["aggregate_name"]
                if kind not in ("mean", "stddev"):
                    continue
            else:  # a single repetition: its time is the mean
                kind = "mean"
            value = b["real_time"] * UNIT_NS[b["time_unit"]]
            self.results.setdefault(name, {})[kind] = value

    def mean(self, name):
        r = self.results.get(name)
        return r["mean"] if r else None

    def stddev(self, name):
        r = self.results.get(name)
        return r.get("stddev", 0.0) if r else None

    def label(self):
        shared = ", DIPC_SHARED_STACKS=1" if self.shared_stacks else ""
        return self.program + (f" (--backend={self.backend}{shared})"
                               if self.backend else "")


class Figure:
    """One measured figure: where it comes from and its value."""

    def __init__(self, label, run, name):
        self.label, self.run, self.name = label, run, name
        self.mean = run.mean(name)
        self.stddev = run.stddev(name)

    def ratio_to(self, baseline):
        base = self.run.mean(baseline)
        return self.mean / base if self.mean and base else None


def fmt_time(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def fmt_ratio(x):
    if x is None:
        return "—"
    return f"{x:.3g}×" if x < 1000 else f"{x:,.0f}×"


def find_runs(runs, has, shared_stacks=False):
    """Runs that measured `has`; those with proxies that do not switch
    stacks only on request (they serve the stack-isolation section)."""
    return [r for r in runs if r.mean(has) is not None and
            r.shared_stacks == shared_stacks]


def call_figures(runs):
    """Figure 5: one synchronous call with a one-byte (one-word) argument."""
    figures = []
    base_run = (find_runs(runs, "ipc/pipe/same_cpu/bytes:1") or runs)[0]
    figures.append(Figure("Function call", base_run, "baseline/function_call"))
    figures.append(Figure("Indirect function call", base_run,
                          "baseline/indirect_call"))
    figures.append(Figure("Syscall (getppid)", base_run,
                          "baseline/syscall_getppid"))
    for run in sorted(find_runs(runs, "dipc/low"),
                      key=lambda r: r.backend or ""):
        for policy, label in POLICIES:
            figures.append(Figure(f"dIPC {label} ({run.backend})", run,
                                  f"dipc/{policy}"))
    for run in sorted(find_runs(runs, "dipc_proc/low"),
                      key=lambda r: r.backend or ""):
        for policy, label in POLICIES:
            figures.append(Figure(f"dIPC + proc {label} ({run.backend})", run,
                                  f"dipc_proc/{policy}"))
    for primitive, label in PRIMITIVES:
        for placement, where in PLACEMENTS:
            name = f"ipc/{primitive}/{placement}/bytes:1"
            for run in find_runs(runs, name):
                figures.append(Figure(f"{label} ({where})", run, name))
    return [f for f in figures if f.mean is not None]


def recovery_figures(runs):
    """Per run of the recovery program (one per backend): its figures."""
    labels = [("none", "No recovery (proxy called directly)"),
              ("setjmp", "setjmp-style"), ("try", "try-style"),
              ("setjmp_fault", "setjmp-style, callee crash"),
              ("try_fault", "try-style, callee crash")]
    groups = []
    for run in sorted(find_runs(runs, "recovery/none"),
                      key=lambda r: r.backend or ""):
        figures = [Figure(label, run, f"recovery/{key}")
                   for key, label in labels]
        groups.append((run, [f for f in figures if f.mean is not None]))
    return groups


def sqlite_section(runs):
    """examples/sqlite-domain: SQLite in domain db against its plain build,
    both measured by one process (one per backend)."""
    lines = []
    for run in sorted(find_runs(runs, "sqlite/query/dipc"),
                      key=lambda r: r.backend or ""):
        for what, label in (("workload", "whole run: open, 10,000 inserts "
                             "and 10,000 queries, close"),
                            ("query", "one query (one entry call)")):
            dipc, plain = (run.mean(f"sqlite/{what}/{b}")
                           for b in ("dipc", "plain"))
            if dipc is None or plain is None:
                continue
            lines.append(f"| `{run.backend}` | {label} | {fmt_time(dipc)} | "
                         f"{fmt_time(plain)} | {fmt_ratio(dipc / plain)} | "
                         f"{fmt_time(dipc - plain)} |")
    if not lines:
        return []
    return ["| backend | figure | dIPC build | plain build | × plain | "
            "dIPC − plain |", "|---|---|---:|---:|---:|---:|"] + lines


def errno_section(runs):
    """Reading dipc_errno: the runtime vector's entry against the gate."""
    lines = []
    for run in sorted(find_runs(runs, "errno/read"),
                      key=lambda r: r.backend or ""):
        read, gate = run.mean("errno/read"), run.mean("errno/gate")
        if gate is None:
            continue
        how = run.context.get("dipc_errno_read", "?")
        lines.append(f"| `{run.backend}` | {how} | {fmt_time(read)} | "
                     f"{fmt_time(gate)} | {fmt_ratio(gate / read)} |")
    if not lines:
        return []
    return ["| backend | `dipc_errno` read | read | gate | gate ÷ read |",
            "|---|---|---:|---:|---:|"] + lines


def callback_section(runs):
    """qsort with a comparator in a domain against the default domain's."""
    lines = []
    for run in sorted(find_runs(runs, "callback/qsort_domain"),
                      key=lambda r: r.backend or ""):
        domain = run.mean("callback/qsort_domain")
        default = run.mean("callback/qsort_default")
        if domain is None or default is None:
            continue
        lines.append(f"| `{run.backend}` | {fmt_time(domain)} | "
                     f"{fmt_time(default)} | {fmt_ratio(domain / default)} |")
    if not lines:
        return []
    return ["| backend | comparator in a domain | in the default domain | "
            "domain ÷ default |", "|---|---:|---:|---:|"] + lines


def heap_section(runs):
    """malloc/free in a domain: its own heap against glibc's, per size."""
    lines = []
    for run in sorted(find_runs(runs, "heap/own/32"),
                      key=lambda r: r.backend or ""):
        for size in sorted(int(n.split("/")[-1]) for n in run.results
                           if n.startswith("heap/own/")):
            own = run.mean(f"heap/own/{size}")
            libc = run.mean(f"heap/libc/{size}")
            if own is None or libc is None:
                continue
            per_own = own / HEAP_PAIRS_PER_CALL
            per_libc = libc / HEAP_PAIRS_PER_CALL
            lines.append(f"| `{run.backend}` | {size} | {fmt_time(per_own)} "
                         f"| {fmt_time(per_libc)} | "
                         f"{fmt_ratio(per_own / per_libc)} |")
    if not lines:
        return []
    return ["| backend | bytes | own heap | glibc's heap | own ÷ glibc |",
            "|---|---:|---:|---:|---:|"] + lines


def stack_section(runs):
    """What isolating stacks adds to a call, as ratios of this run: the
    proxies' switch to the callee domain's stack (against proxies that do
    not switch, DIPC_SHARED_STACKS=1, `none` only), and a caller lending a
    local buffer (on the unsafe stack) against the same caller with the
    buffer on its own stack."""
    rows = []
    for shared in find_runs(runs, "dipc/low", shared_stacks=True):
        for run in find_runs(runs, "dipc/low"):
            if run.backend != shared.backend:
                continue
            for policy, label in POLICIES:
                name = f"dipc/{policy}"
                rows.append((f"dIPC {label}: proxy switches stacks",
                             run.backend, run.mean(name), shared.mean(name),
                             "proxy without the switch"))
    for run in sorted(find_runs(runs, "stack/lend"),
                      key=lambda r: r.backend or ""):
        rows.append(("dIPC Low, caller lends a 64-byte local", run.backend,
                     run.mean("stack/lend"),
                     run.mean("stack/lend_own_stack"),
                     "local on the caller's stack"))
    if not rows:
        return []
    lines = ["| call | backend | with | without | with ÷ without | "
             "without is |", "|---|---|---:|---:|---:|---|"]
    for what, backend, with_, without, base in rows:
        ratio = with_ / without if with_ and without else None
        lines.append(f"| {what} | `{backend}` | {fmt_time(with_)} | "
                     f"{fmt_time(without)} | {fmt_ratio(ratio)} | {base} |")
    return lines


# The parts of a dIPC call (bench/breakdown.cc), cumulative: each
# benchmark adds one part to the one before.
BREAKDOWN_STEPS = [
    ("Call (indirect)", "baseline/indirect_call"),
    ("Callee stub", "breakdown/{policy}/callee_stub"),
    ("Proxy: checks, KCS push and pop, stack and domain switch, return",
     "breakdown/{policy}/proxy"),
    ("Caller stub (saving and zeroing registers under High; under `sfi` "
     "the calling function's shadow stack, or a wrapper's return handed "
     "to the proxy, and its call check)",
     "dipc/{policy}"),
]


def breakdown_parts(runs, run, policy):
    """(label, ns) per part of run's dIPC call, and the whole call; None
    when the run did not measure them all."""
    means = [run.mean(name.format(policy=policy))
             for _, name in BREAKDOWN_STEPS]
    if any(m is None for m in means):
        return None
    parts = [(BREAKDOWN_STEPS[0][0], means[0])]
    parts += [(label, means[i] - means[i - 1])
              for i, (label, _) in enumerate(BREAKDOWN_STEPS) if i > 0]
    return parts, means[-1]


# proxy_ladder.S's rungs: each adds one part of the proxy's work.
LADDER_RUNGS = [
    "Skeleton: the call through, registers kept and zeroed, PKRU sites "
    "(NOPs)",
    "Checks of the thread's state and stack, in and out",
    "The caller's APL check",
    "KCS entry pushed, checked and popped",
    "Switch to the callee domain's stack and back",
    "Domain switch: running domain set, its image published (`XCHG`), "
    "checked valid and current, in and out",
]


def ladder_section(runs):
    """The proxy's work part by part, from the model (proxy_ladder.S),
    beside the real proxy's time in the same terms."""
    cols = [r for r in sorted(find_runs(runs, "breakdown/ladder/5"),
                              key=lambda r: r.backend or "")]
    if not cols:
        return []
    lines = ["| rung: adds | " + " | ".join(f"`{r.backend}`" for r in cols)
             + " |", "|---|" + "---:|" * len(cols)]
    for i, label in enumerate(LADDER_RUNGS):
        cells = []
        for r in cols:
            t = r.mean(f"breakdown/ladder/{i}")
            prev = r.mean(f"breakdown/ladder/{i - 1}") if i else None
            cells.append(fmt_time(t) if not i else
                         fmt_added(t - prev) if t and prev else "—")
        lines.append(f"| {i}: {label} | " + " | ".join(cells) + " |")
    lines.append("| **Model: whole proxy but `WRPKRU`** (rung 5) | " +
                 " | ".join(f"**{fmt_time(r.mean('breakdown/ladder/5'))}**"
                            for r in cols) + " |")
    real = []
    for r in cols:
        proxy, stub, call = (r.mean(n) for n in (
            "breakdown/low/proxy", "breakdown/low/callee_stub",
            "baseline/indirect_call"))
        real.append(fmt_time(proxy - stub + call)
                    if None not in (proxy, stub, call) else "—")
    lines.append("| The real Low proxy in the same terms (proxy − callee "
                 "stub + indirect call) | " + " | ".join(real) + " |")
    return lines


def xproc_section(runs):
    """dIPC + proc: what crossing processes adds to a Low call, per backend
    (docs/cross-process.md §4, §5)."""
    local = {r.backend: r for r in find_runs(runs, "dipc/low")}
    lines = []
    for run in sorted(find_runs(runs, "dipc_proc/low"),
                      key=lambda r: r.backend or ""):
        low, syscall, tls, getppid = (run.mean(n) for n in (
            "dipc_proc/low", "dipc_proc/syscall", "dipc_proc/tls_switch",
            "baseline/syscall_getppid"))
        other = local.get(run.backend)
        in_one = other.mean("dipc/low") if other else None
        rows = [
            ("dIPC Low, both domains in one process "
             f"(`{other.label() if other else '—'}`)", in_one, False),
            ("dIPC + proc Low", low, False),
            ("… crossing processes adds: borrowing a shadow thread, the TLS "
             "switch, the callee process's stacks",
             low - in_one if None not in (low, in_one) else None, True),
            ("… of which the TLS switch (two `WRFSBASE`, timed alone)", tls,
             True),
            ("A system call of the callee's code, run by the callee process "
             "(process tracking: trap, mailbox, futex wake-ups): the Low "
             "call with one `getppid` in the callee − the Low call",
             syscall - low if None not in (syscall, low) else None, True),
            ("… that system call made directly", getppid, False),
        ]
        lines += [f"| part (`{run.backend}`) | time |", "|---|---:|"]
        lines += [f"| {label} | "
                  f"{(fmt_added(t) if added else fmt_time(t)) if t is not None else '—'} |"
                  for label, t, added in rows]
        lines.append("")
    return lines


def breakdown_section(runs):
    """Figure 2 for dIPC: what each part of a Low and a High call costs,
    per backend, each part measured in the same process by calling the
    call's inner parts directly (bench/breakdown.cc)."""
    backends = sorted(find_runs(runs, "breakdown/low/proxy"),
                      key=lambda r: r.backend or "")
    if not backends:
        return [], []
    lines, bars = [], []
    for policy, label in POLICIES:
        cols = [(run, breakdown_parts(runs, run, policy)) for run in backends]
        cols = [(run, p) for run, p in cols if p]
        if not cols:
            continue
        lines += [f"### dIPC {label}", "",
                  "| part | " + " | ".join(f"`{run.backend}`"
                                          for run, _ in cols) + " |",
                  "|---|" + "---:|" * len(cols)]
        # Inside the proxy: what one run can tell apart.
        shared = {r.backend: r for r in
                  find_runs(runs, f"breakdown/{policy}/proxy",
                            shared_stacks=True)}
        switch = []
        for run, _ in cols:
            other = shared.get(run.backend)
            name = f"breakdown/{policy}/proxy"
            switch.append(fmt_added(run.mean(name) - other.mean(name))
                          if other and other.mean(name) else "—")
        # The sfi proxy publishes no image (rt/gate.S): no exchange to count.
        xchg = ["none in its proxy" if run.backend == "sfi"
                else fmt_time(2 * run.mean("breakdown/xchg"))
                if run.mean("breakdown/xchg") else "—" for run, _ in cols]
        for i, (part, _) in enumerate(BREAKDOWN_STEPS):
            lines.append(f"| {part} | " + " | ".join(
                fmt_added(p[0][i][1]) if i else fmt_time(p[0][i][1])
                for _, p in cols) + " |")
            if BREAKDOWN_STEPS[i][1].endswith("/proxy"):
                lines.append("| … of which the stack switch (against "
                             "`DIPC_SHARED_STACKS=1`) | " +
                             " | ".join(switch) + " |")
                lines.append("| … of which 2 locked exchanges (publishing "
                             "the domain's image, in and out; timed alone) "
                             "| " + " | ".join(xchg) + " |")
        lines.append("| **Whole call** | " + " | ".join(
            f"**{fmt_time(p[1])}**" for _, p in cols) + " |")
        lines.append("| Whole call ÷ indirect call | " + " | ".join(
            fmt_ratio(p[1] / p[0][0][1]) for _, p in cols) + " |")
        lines.append("")
        bars += [(f"{label} ({run.backend})", p[0], p[1]) for run, p in cols]
    return lines, bars


def plot_breakdown(bars, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = list(reversed(bars))
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(shown) + 2.2))
    colors = ["tab:gray", "tab:orange", "tab:green", "tab:blue"]
    right = 0.0
    for i, (label, parts, whole) in enumerate(shown):
        left = 0.0
        for j, (part, ns) in enumerate(parts):
            width = max(ns, 0.0)  # a part below the noise shows as none
            ax.barh(i, width, left=left, color=colors[j % len(colors)],
                    label=part if i == 0 else None)
            left += width
        ax.text(left * 1.01, i, f"whole call {fmt_time(whole)}",
                va="center", fontsize=8)
        right = max(right, left)
    ax.set_xlim(0, right * 1.3)
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([label for label, _, _ in shown])
    ax.set_xlabel("time per call (ns)")
    ax.set_title("Parts of a dIPC call (cf. paper Fig. 2)")
    fig.legend(fontsize=7, loc="lower center", ncol=2)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def sweep_series(runs):
    """Figure 6: label -> (run, name prefix), for every swept primitive."""
    series = []
    for run in sorted(find_runs(runs, "sweep/dipc_low/bytes:1"),
                      key=lambda r: r.backend or ""):
        for policy, label in POLICIES:
            series.append((f"dIPC {label} ({run.backend})", run,
                           f"sweep/dipc_{policy}"))
    for primitive, label in PRIMITIVES:
        for placement, where in PLACEMENTS:
            prefix = f"ipc/{primitive}/{placement}"
            for run in find_runs(runs, prefix + "/bytes:1"):
                series.append((f"{label} ({where})", run, prefix))
    return series


def sizes_of(run, prefix):
    sizes = []
    for name in run.results:
        if name.startswith(prefix + "/"):
            m = SIZE_RE.search(name)
            if m:
                sizes.append(int(m.group(1)))
    return sorted(sizes)


def fmt_size(n):
    return f"{n // 1024} KiB" if n >= 1024 else f"{n} B"


def call_table(figures):
    lines = ["| primitive | mean | σ | × function call | × indirect call "
             "| × syscall | measured by |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for f in figures:
        lines.append(
            f"| {f.label} | {fmt_time(f.mean)} | {fmt_time(f.stddev)} | "
            f"{fmt_ratio(f.ratio_to('baseline/function_call'))} | "
            f"{fmt_ratio(f.ratio_to('baseline/indirect_call'))} | "
            f"{fmt_ratio(f.ratio_to('baseline/syscall_getppid'))} | "
            f"`{f.run.label()}` |")
    return lines


def dipc_vs_ipc_table(figures):
    dipc = [f for f in figures if f.label.startswith("dIPC")]
    ipc = [f for f in figures if f.name.startswith("ipc/")]
    if not dipc or not ipc:
        return []
    lines = ["| Linux IPC ÷ dIPC | " + " | ".join(d.label for d in dipc) + " |",
             "|---|" + "---:|" * len(dipc)]
    for i in ipc:
        lines.append(f"| {i.label} | " + " | ".join(
            fmt_ratio(i.mean / d.mean) for d in dipc) + " |")
    return lines


def recovery_section(groups):
    lines = []
    for run, figures in groups:
        lines += [f"### Backend `{run.backend}`", ""]
        lines += recovery_table(figures) + [""]
    return lines


def recovery_table(figures):
    if not figures:
        return []
    by_key = {f.name.split("/", 1)[1]: f for f in figures}
    lines = ["| recovery stub | mean | σ | × function call | × no recovery |",
             "|---|---:|---:|---:|---:|"]
    none = by_key.get("none")
    for f in figures:
        vs_none = f.mean / none.mean if none else None
        lines.append(f"| {f.label} | {fmt_time(f.mean)} | "
                     f"{fmt_time(f.stddev)} | "
                     f"{fmt_ratio(f.ratio_to('baseline/function_call'))} | "
                     f"{fmt_ratio(vs_none)} |")
    setjmp, try_ = by_key.get("setjmp"), by_key.get("try")
    if setjmp and try_:
        speedup = setjmp.mean / try_.mean
        verdict = ("faster than" if speedup > 1
                   else "not faster than")
        lines += ["", f"**Normal path: a call with try-style recovery is "
                  f"{speedup:.2f}× {verdict} one with setjmp-style** "
                  f"(whole cross-domain call; paper §5.3.1: ~2.5×)."]
        if none:
            setjmp_cost = setjmp.mean - none.mean
            try_cost = try_.mean - none.mean
            try_text = (fmt_time(try_cost) if try_cost > 0 else
                        "nothing measurable (below the noise)")
            lines.append(
                f"The recovery itself, over the same call without a stub: "
                f"setjmp-style adds {fmt_time(setjmp_cost)}, try-style "
                f"{try_text} per call"
                + (f" ({setjmp_cost / try_cost:.3g}× less)."
                   if try_cost > 0 and setjmp_cost > try_cost else "."))
        if speedup <= 1:
            lines.append("try-style is **not** faster than setjmp-style in "
                         "this run: see docs/benchmarks.md, \"Recovery "
                         "stubs\", for why.")
    return lines


def added_ns(run, prefix, size):
    """Time `prefix` adds to the function call of the same program."""
    t = run.mean(f"{prefix}/bytes:{size}")
    b = run.mean(f"sweep/function_call/bytes:{size}")
    return t - b if t is not None and b is not None else None


def fmt_added(ns):
    if ns is None:
        return "—"
    return ("+" if ns >= 0 else "−") + fmt_time(abs(ns))


def sweep_tables(runs, series):
    base_runs = find_runs(runs, "ipc/pipe/same_cpu/bytes:1") or \
        find_runs(runs, "sweep/function_call/bytes:1")
    if not base_runs or not series:
        return []
    base = base_runs[0]
    sizes = sizes_of(base, "sweep/function_call")
    header = " | ".join(label for label, _, _ in series)
    lines = ["Time per call (the function call as measured by "
             f"`{base.label()}`):", "",
             f"| argument | function call | {header} |",
             "|---:|---:|" + "---:|" * len(series)]
    for size in sizes:
        cells = [fmt_time(base.mean(f"sweep/function_call/bytes:{size}"))]
        cells += [fmt_time(run.mean(f"{prefix}/bytes:{size}"))
                  for _, run, prefix in series]
        lines.append(f"| {fmt_size(size)} | " + " | ".join(cells) + " |")
    lines += ["", "Time added to the function call measured by the same "
              "program (what the plot shows):", "",
              f"| argument | {header} |", "|---:|" + "---:|" * len(series)]
    negative = False
    for size in sizes:
        added = [added_ns(run, prefix, size) for _, run, prefix in series]
        negative |= any(a is not None and a < 0 for a in added)
        lines.append(f"| {fmt_size(size)} | " +
                     " | ".join(fmt_added(a) for a in added) + " |")
    if negative:
        lines += ["", "A negative difference is below this run's noise: the "
                  "baseline and the primitive ran seconds apart, and a "
                  "few-hundred-nanosecond call cost is smaller than the "
                  "variation of a multi-microsecond memset-and-read of a "
                  "large argument on this machine. The plot leaves such "
                  "points out."]
    return lines


def plot_calls(figures, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = list(reversed(figures))
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(shown) + 1.2))
    colors = ["tab:gray" if f.name.startswith("baseline/") else
              "tab:green" if f.name.startswith("dipc/") else "tab:blue"
              for f in shown]
    ax.barh([f.label for f in shown], [f.mean for f in shown],
            xerr=[f.stddev or 0 for f in shown], color=colors)
    for i, f in enumerate(shown):
        ax.text(f.mean * 1.08, i, fmt_time(f.mean), va="center", fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("time per synchronous call (ns, log scale)")
    ax.set_title("Synchronous calls, one-byte argument (cf. paper Fig. 5)")
    ax.set_xlim(right=max(f.mean for f in shown) * 8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_sweep(runs, series, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base = find_runs(runs, "sweep/function_call/bytes:1")[0]
    fig, ax = plt.subplots(figsize=(10, 5))
    for label, run, prefix in series:
        xs, ys, lo, hi = [], [], [], []
        for size in sizes_of(run, prefix):
            added = added_ns(run, prefix, size)
            if added is None:
                continue
            # At or below zero the difference is lost in the baseline's
            # noise; a log axis cannot show it: leave a gap in the line.
            sd = run.stddev(f"{prefix}/bytes:{size}") or 0.0
            xs.append(size)
            ys.append(added if added > 0 else float("nan"))
            lo.append(max(added - sd, added / 10) if added > 0 else float("nan"))
            hi.append(added + sd if added > 0 else float("nan"))
        if not xs:
            continue
        style = "--" if "≠CPU" in label else "-"
        line, = ax.plot(xs, ys, style, marker="o", markersize=3, label=label)
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks([s for s in sizes_of(base, "sweep/function_call")])
    ax.set_xticklabels([fmt_size(s) for s in
                        sizes_of(base, "sweep/function_call")], rotation=45)
    ax.set_xlabel("argument size (caller writes, callee reads)")
    ax.set_ylabel("time added to a function call (ns, log scale)")
    ax.set_title("Argument size sweep (cf. paper Fig. 6); shaded: σ; "
                 "gaps: below noise", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def machine_lines(runs):
    ctx = runs[0].context
    lines = [
        f"- date: {ctx.get('date', '?')}",
        f"- host: `{ctx.get('host_name', '?')}`, "
        f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz"
        f", Linux {platform.release()}",
        f"- load average at start: "
        f"{', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}",
        f"- CPU frequency scaling: "
        f"{'enabled' if ctx.get('cpu_scaling_enabled') else 'disabled'}",
    ]
    if ctx.get("library_build_type") == "debug":
        lines.append("- Google Benchmark reports its library as built without "
                     "NDEBUG (Debian's libbenchmark-dev); it only affects the "
                     "harness, which is outside the timed loop.")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--machine", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--note", default="")
    parser.add_argument("--command", default="bash scripts/bench.sh")
    parser.add_argument("--missing", action="append", default=[])
    parser.add_argument("json", nargs="+")
    args = parser.parse_args()

    runs, errors = [], []
    for path in args.json:
        try:
            runs.append(Run(path))
        except (OSError, ValueError, KeyError) as e:
            # A program that crashed leaves a truncated file, or none.
            errors.append(f"{os.path.basename(path)}: no results ({e})")
    if not runs:
        sys.exit("report: no readable results")
    for r in runs:  # once per benchmark, not per repetition
        errors += [f"`{r.label()}`: {e}" for e in dict.fromkeys(r.errors)]
    calls = call_figures(runs)
    recovery = recovery_figures(runs)
    series = sweep_series(runs)

    os.makedirs(args.out, exist_ok=True)
    fig5 = f"{args.machine}-fig5.png"
    fig6 = f"{args.machine}-fig6.png"
    plot_calls(calls, os.path.join(args.out, fig5))
    if series:
        plot_sweep(runs, series, os.path.join(args.out, fig6))

    md = [f"# Benchmarks on {args.machine}", "",
          f"Generated by `bench/report.py` from one run of `{args.command}`"
          " (Google Benchmark, real time, mean and σ over repetitions). "
          "Ratios to the function call and to the syscall divide numbers "
          "measured by the same program in this run.", ""]
    if args.note:
        md += [f"**Note:** {args.note}", ""]
    md += machine_lines(runs) + [""]
    md += ["## Synchronous call, one-byte argument (Figure 5)", "",
           f"![Figure 5]({fig5})", ""] + call_table(calls) + [""]
    low_vs_indirect = [
        f"dIPC Low under `{f.run.backend}`: "
        f"{fmt_ratio(f.ratio_to('baseline/indirect_call'))} the indirect "
        "call of the same program" for f in calls if f.name == "dipc/low"]
    if low_vs_indirect:
        md += ["; ".join(low_vs_indirect) + ".", ""]
    vs = dipc_vs_ipc_table(calls)
    if vs:
        md += ["### dIPC against Linux IPC (how many times faster)", ""]
        md += vs + [""]
    breakdown_lines, breakdown_bars = breakdown_section(runs)
    if breakdown_lines:
        fig2 = f"{args.machine}-fig2.png"
        plot_breakdown(breakdown_bars, os.path.join(args.out, fig2))
        md += ["## Parts of a dIPC call (Figure 2)", "",
               f"![Figure 2]({fig2})", "",
               "Each backend's program measures, besides the whole call, "
               "the call's inner parts called directly through a function "
               "pointer (`bench/breakdown.cc`): the entry's callee stub "
               "alone, and the proxy the caller stub calls (with the "
               "callee stub). Each part is the difference between two of "
               "these, measured by one process in this run; a part below "
               "this run's noise can come out negative. The proxy's stack "
               "switch is its time against the same program run with "
               "`DIPC_SHARED_STACKS=1` (`none` only); the locked "
               "exchanges are timed alone, outside any call.", ""]
        md += breakdown_lines
        xproc = xproc_section(runs)
        if xproc:
            md += ["### dIPC + proc: what crossing processes adds", "",
                   "The cross-process program (`dipc-bench-xproc`) "
                   "measures its calls and the TLS switch alone; the "
                   "in-process Low call comes from another program of "
                   "this run, so their difference carries both programs' "
                   "noise.", ""] + xproc
        ladder = ladder_section(runs)
        if ladder:
            md += ["### Inside the proxy (a model)", "",
                   "`bench/proxy_ladder.S` repeats rt/gate.S's proxy "
                   "template instruction for instruction on a state of the "
                   "runtime's layout, calling the plain callee through a "
                   "pointer; rung *n* does the work of rungs 0 to *n*. "
                   "Its last rung is the whole proxy but its `WRPKRU` "
                   "(NOPs under `none` and `sfi`, four per call under "
                   "`mpk`), shown beside the real proxy: a gap between "
                   "them is what the model misses (the runtime's patched "
                   "immediates and `gs` loads, its memory's placement).",
                   ""]
            md += ladder + [""]
    stack_lines = stack_section(runs)
    if stack_lines:
        md += ["## Stack isolation", "",
               "Every call runs the callee on a stack of its domain, and a "
               "caller's escaping locals live on the unsafe stack "
               "(docs/runtime.md §4, docs/compiler.md \"Stacks\"). "
               "*Without* is measured in the same run: proxies that do not "
               "switch stacks (`DIPC_SHARED_STACKS=1`, `none` only), and the "
               "same caller built with `-mllvm -dipc-unsafe-stack=false`.",
               ""]
        md += stack_lines + [""]
    heap_lines = heap_section(runs)
    if heap_lines:
        md += ["## Domain heaps", "",
               "One malloc/free pair (and a byte written) in a domain with "
               "its own heap (`loader/heap_alloc.c`) and in a domain that "
               "may write the default domain and so uses glibc's; each call "
               f"makes {HEAP_PAIRS_PER_CALL} pairs, so the entry call adds "
               "little.", ""]
        md += heap_lines + [""]
    callback_lines = callback_section(runs)
    if callback_lines:
        md += ["## Callbacks from libc", "",
               "One `qsort` of 200 ints whose comparator libc calls back: "
               "in a domain, through one entry call (under `sfi` each "
               "comparison goes through a callback proxy into the domain, "
               "docs/runtime.md §1), and in the default domain (a direct "
               "call of the comparator), in the same run.", ""]
        md += callback_lines + [""]
    errno_lines = errno_section(runs)
    if errno_lines:
        md += ["## Reading dipc_errno", "",
               "`errno/read` calls the runtime vector's entry, as the "
               "`dipc_errno` macro does; `errno/gate` calls the gate "
               "variant (`__dipc_errno_location_gate`).", ""]
        md += errno_lines + [""]
    md += ["## Recovery stubs (paper §5.3.1)", ""]
    md += recovery_section(recovery) or ["Not measured in this run."]
    sqlite_lines = sqlite_section(runs)
    if sqlite_lines:
        md += ["", "## SQLite in a domain (examples/sqlite-domain)", "",
               "SQLite's amalgamation compiled with `-fdipc "
               "-fdipc-domain=db`, called through the example's entries, "
               "against the same wrapper and SQLite built without `-fdipc`, "
               "in the same process (`bench/sqlite.cc`). *dIPC − plain* of "
               "a query is the cost of one entry call.", ""]
        md += sqlite_lines
    md += ["", "## Argument size sweep (Figure 6)", ""]
    if series:
        md += [f"![Figure 6]({fig6})", "",
               "The caller writes the argument, the callee reads it; the "
               "plot shows the time each primitive adds to the function call "
               "that passes the same argument. dIPC passes a "
               "reference; pipe and RPC copy through the kernel; the "
               "semaphore caller writes into a shared buffer.", ""]
        md += sweep_tables(runs, series)
    else:
        md += ["Not measured in this run."]
    # Programs say in their context what they could not measure.
    missing = list(dict.fromkeys(
        args.missing + [r.context["not_measured"] for r in runs
                        if "not_measured" in r.context]))
    if missing:
        md += ["", "## Not measured", ""]
        md += [f"- {m}" for m in missing]
    if errors:
        md += ["", "## Errors", ""] + [f"- {e}" for e in errors]
    md += ["", "Programs in this run: " +
           ", ".join(f"`{r.label()}`" for r in runs) + "."]

    with open(os.path.join(args.out, f"{args.machine}.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"report: wrote {os.path.join(args.out, args.machine + '.md')}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
