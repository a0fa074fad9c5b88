"""Where a cold compile's time goes: numba's passes (typing, lowering) and LLVM's work (function
passes, module optimization, machine code) per compiled function, exclusive of nested compiles.

    CARDSIM_CACHE_DIR=/tmp/empty python benchmarks/compile_profile.py run GAME -n 1000 [...]

Runs a ``cardsim`` command line in this process with numba's internals wrapped by timers (a
diagnostic only: it touches private numba methods and may need updating with numba). Prints the
time per category, the functions that cost most, and every function compiled more than once
(one line per signature).
"""

from __future__ import annotations

import collections
import sys
import time

from numba.core import codegen, compiler_machinery, event

_PASS_NAMES = {"nopython_type_inference": "typing", "native_lowering": "lowering (numba)"}

_stack: list[list] = []  # [category, label, start of the current exclusive slice]
by_cat: collections.Counter = collections.Counter()
by_label: dict = collections.defaultdict(collections.Counter)
sigs: dict = collections.defaultdict(list)


def _push(cat: str, label: str) -> None:
    now = time.process_time()
    if _stack:
        top = _stack[-1]
        by_cat[top[0]] += now - top[2]
        by_label[top[1]][top[0]] += now - top[2]
    _stack.append([cat, label, now])


def _pop() -> None:
    now = time.process_time()
    cat, label, start = _stack.pop()
    by_cat[cat] += now - start
    by_label[label][cat] += now - start
    if _stack:
        _stack[-1][2] = now


def _label() -> str:
    for frame in reversed(_stack):
        if frame[1] != "?":
            return frame[1]
    return "?"


def wrap(owner, name: str, cat: str, label=None) -> None:
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        _push(cat, label(*args) if label else _label())
        try:
            return original(*args, **kwargs)
        finally:
            _pop()

    setattr(owner, name, wrapper)


def _dispatcher_name(d) -> str:
    return f"{d.py_func.__module__.split('.')[-1]}.{d.py_func.__qualname__}"


class CompileListener(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        sigs[_dispatcher_name(d)].append(str(ev.data["args"]))
        _push("numba other", _dispatcher_name(d))

    def on_end(self, ev):
        _pop()


def install() -> None:
    event.register("numba:compile", CompileListener())
    original = compiler_machinery.PassManager._runPass

    def run_pass(self, index, pss, internal_state):
        _push(_PASS_NAMES.get(pss.name(), "numba " + pss.name()), _label())
        try:
            return original(self, index, pss, internal_state)
        finally:
            _pop()

    compiler_machinery.PassManager._runPass = run_pass
    wrap(codegen.CPUCodeLibrary, "add_llvm_module", "llvm function passes")
    wrap(codegen.CPUCodeLibrary, "_optimize_final_module", "llvm module passes")
    wrap(codegen.JITCodeLibrary, "_finalize_specific", "llvm machine code")
    wrap(codegen.CPUCodeLibrary, "serialize_using_object_code", "cache save")


_MAIN = ("typing", "lowering (numba)")


def report(total: float) -> None:
    out = sys.stderr
    print(f"\ncompile profile: {total:.1f} s CPU in the command", file=out)
    for cat, seconds in by_cat.most_common():
        print(f"  {seconds:7.2f}  {cat}", file=out)
    print("\nfunctions by exclusive CPU s (typing / lowering / llvm fn / llvm mod / mc):", file=out)
    rows = sorted(by_label.items(), key=lambda kv: -sum(kv[1].values()))
    for label, cats in rows[:30]:
        parts = [
            cats.get(c, 0.0)
            for c in (
                "typing",
                "lowering (numba)",
                "llvm function passes",
                "llvm module passes",
                "llvm machine code",
            )
        ]
        cells = " ".join(f"{p:5.2f}" for p in parts)
        others = ", ".join(
            f"{c.removeprefix('numba ')} {v:.2f}"
            for c, v in cats.most_common()
            if v >= 0.1 and c not in _MAIN and c.startswith("numba")
        )
        print(f"  {sum(cats.values()):6.2f}  [{cells}]  {label}  {others}", file=out)
    dup = {k: v for k, v in sigs.items() if len(v) > 1}
    if dup:
        print("\ncompiled more than once:", file=out)
        for k, v in sorted(dup.items()):
            for s in v:
                print(f"  {k} {s}", file=out)
    print(f"\n{len(sigs)} functions, {sum(len(v) for v in sigs.values())} compiles", file=out)


def main() -> None:
    install()
    from cardsim.cli.main import cli

    t0 = time.process_time()
    try:
        cli(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
    report(time.process_time() - t0)


if __name__ == "__main__":
    main()
