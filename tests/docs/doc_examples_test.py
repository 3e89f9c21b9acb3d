#!/usr/bin/env python3
"""The checker of the docs' example outputs (.ci/doc-examples) on fixture documents: a wrong
output fails --check naming the file, the line and the first differing line; --write regenerates
it; `...` elisions and volatile tokens pass; unmarked blocks, shell syntax, foreign programs, an
unexpected exit status and typed output under an illustrative marker are refused.

    python3 tests/docs/doc_examples_test.py CHECKER BUILD      (ctest: docs.examples_checker)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECKER, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FAILURES = []
THEORY = "$ build/geomsim theory --tau 0.5 --d 3"
SOLVE = "$ build/geomsim --K 2 --ny 2 --d 2 --alpha 0.5 --tau 0.5 --restarts 0"


def run(mode, doc):
    result = subprocess.run([sys.executable, CHECKER, mode, BUILD, "--doc", doc], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    return result.returncode, result.stdout.decode()


def expect(name, condition, output):
    if not condition:
        FAILURES.append(name)
        print(f"FAILED: {name}\n{output}")
    else:
        print(f"ok: {name}")


def write(folder, text):
    path = os.path.join(folder, "fixture.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main():
    folder = tempfile.mkdtemp(prefix="doc-examples-test.")
    try:
        # 1. A wrong output fails, naming the file, the line and both versions of the first differing line.
        doc = write(folder, f"# Fixture\n\n<!-- example: run -->\n```\n{THEORY}\nwrong first line\n```\n")
        code, out = run("--check", doc)
        expect("a wrong output fails --check with file, line and the differing line",
               code == 1 and "fixture.md:6: the output of `build/geomsim theory --tau 0.5 --d 3` differs: "
               "the doc shows 'wrong first line', the run printed 'geomsim theory:" in out, out)

        # 2. --write regenerates it, and --check then passes.
        code, out = run("--write", doc)
        text = open(doc, encoding="utf-8").read()
        expect("--write rewrites the output", code == 0 and "wrong first line" not in text and
               "geomsim theory: seed 004" in text, out)
        code, out = run("--check", doc)
        expect("--check passes after --write", code == 0 and "every output as the docs show it" in out, out)
        written = text.split("\n")

        # 3. A changed number in the middle of the output is found at its line.
        table = next(i for i, l in enumerate(written) if l.startswith("0.5  3"))
        changed = list(written)
        changed[table] = changed[table].replace("0.7746086331", "0.7746086332")
        write(folder, "\n".join(changed))
        code, out = run("--check", doc)
        expect("a changed digit fails at its line", code == 1 and f"fixture.md:{table + 1}:" in out and
               "0.7746086332" in out, out)

        # 4. `...` stands for left-out lines; a wrong line after it still fails.
        command = written.index(THEORY)
        elided = written[:command + 2] + ["  ..."] + written[table:]
        write(folder, "\n".join(elided))
        code, out = run("--check", doc)
        expect("an elision passes", code == 0, out)
        wrong = list(elided)
        wrong[-3] += " extra"  # the output's last line (then the closing fence and the file's end)
        write(folder, "\n".join(wrong))
        code, out = run("--check", doc)
        expect("a wrong line after an elision fails", code == 1 and f"fixture.md:{len(wrong) - 2}:" in out and
               "extra'" in out, out)
        write(folder, "\n".join(wrong))
        code, out = run("--write", doc)
        text = open(doc, encoding="utf-8").read()
        expect("--write fixes the line and keeps the elision", code == 0 and "  ..." in text and
               " extra" not in text and text == "\n".join(elided), out)

        # 5. Volatile tokens (seconds, threads) are masked; --write keeps the doc's values.
        doc = write(folder, f"<!-- example: run -->\n```\n{SOLVE}\n```\n")
        code, out = run("--write", doc)
        lines = open(doc, encoding="utf-8").read().split("\n")
        timing = next(i for i, l in enumerate(lines) if l.strip().startswith("time "))
        lines[timing] = re.sub(r"[\d.]+ s \(\d+ threads?\)", "99.9 s (64 threads)", lines[timing])
        write(folder, "\n".join(lines))
        code, out = run("--check", doc)
        expect("seconds and thread counts are masked", code == 0, out)
        run("--write", doc)
        expect("--write keeps a line equal once masked", "99.9 s (64 threads)" in open(doc, encoding="utf-8").read(), "")

        # 6. Refusals.
        cases = [
            ("an unmarked example block", f"```\n{THEORY}\n```\n", "fixture.md:1: an example block without a marker"),
            ("a pipe", f"<!-- example: run -->\n```\n$ build/geomsim --version | head -1\n```\n", "needs a shell"),
            ("a redirection", f"<!-- example: run -->\n```\n$ build/geomsim --version >out.txt\n```\n", "needs a shell"),
            ("an expansion", f"<!-- example: run -->\n```\n$ build/geomsim --K $HOME\n```\n", "needs a shell"),
            ("a glob", f"<!-- example: run -->\n```\n$ build/geomsim merge --out all.csv shard*.csv\n```\n",
             "needs a shell"),
            ("a path out of BUILD", "<!-- example: run -->\n```\n$ build/../geomsim --version\n```\n",
             "is not build/NAME or build-main/NAME"),
            ("a program outside BUILD", "<!-- example: run -->\n```\n$ /bin/echo hi\nhi\n```\n",
             "is not build/NAME or build-main/NAME"),
            ("an unexpected exit status", "<!-- example: run -->\n```\n$ build/geomsim theory --K x\n```\n",
             "exited with status 2, the marker expects 0"),
            ("typed output under an illustrative marker",
             f"<!-- example: illustrative: slow -->\n```\n{THEORY}\n42\n```\n", "shows no output"),
            ("an illustrative marker without a reason", f"<!-- example: illustrative -->\n```\n{THEORY}\n```\n",
             "must say why"),
            ("an unknown option", f"<!-- example: run, cwd=/ -->\n```\n{THEORY}\n```\n", "unknown example option"),
            ("an unmarked python block", "```python\nprint(1)\n```\n", "without a marker"),
            ("a python example without its output", "<!-- example: python -->\n```python\nprint(1)\n```\n",
             "needs its output"),
        ]
        for name, text, message in cases:
            doc = write(folder, text)
            before = open(doc, encoding="utf-8").read()
            code, out = run("--check", doc)
            expect(f"refused: {name}", code == 1 and message in out, out)
            code, out = run("--write", doc)
            expect(f"--write refuses too and leaves the file: {name}",
                   code == 1 and open(doc, encoding="utf-8").read() == before, out)
        expect("the refused redirection wrote no file", not os.path.exists(os.path.join(folder, "out.txt")), "")

        # 7. Python examples, where the build has the module.
        module = os.path.join(BUILD, "python")
        if os.path.isdir(module) and any(n.startswith("geomsim") and n.endswith(".so") for n in os.listdir(module)):
            doc = write(folder, "<!-- example: python -->\n```python\nimport geomsim\nprint(geomsim.c_threshold(0.5, 3))\n"
                                "```\n\nprints\n\n<!-- example: output -->\n```text\n0.5\n```\n")
            code, out = run("--check", doc)
            expect("a wrong python output fails", code == 1 and "fixture.md:11:" in out and
                   "the doc shows '0.5', the run printed '0.7746086330966092'" in out, out)
        else:
            print("skipped: python examples (no Python module in BUILD)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
