#!/usr/bin/env python3
"""Where the time goes in a Chrome trace of libtorch's profiler (geomsim_train_bench --profile=FILE).

  summarize_trace.py FILE [--top N]

Prints each operator's self time (its time less that of the operators it called), summed over
the trace and as a share of the total, largest first: the operators that do the work rather
than the wrappers around them. Events nest by time within a thread.
"""
import argparse
import collections
import json


def self_times(events):
    by_thread = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X":
            by_thread[e.get("tid")].append(e)
    totals = collections.Counter()
    calls = collections.Counter()
    for thread_events in by_thread.values():
        thread_events.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []  # [event, time of its children]
        def close(entry):
            totals[entry[0]["name"]] += entry[0]["dur"] - entry[1]
            calls[entry[0]["name"]] += 1
        for e in thread_events:
            while stack and e["ts"] >= stack[-1][0]["ts"] + stack[-1][0]["dur"]:
                close(stack.pop())
            if stack:
                stack[-1][1] += e["dur"]
            stack.append([e, 0.0])
        while stack:
            close(stack.pop())
    return totals, calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with open(args.trace) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    totals, calls = self_times(events)
    total = sum(totals.values())
    print(f"{'self ms':>10} {'share':>6} {'calls':>7}  operator")
    for name, us in totals.most_common(args.top):
        print(f"{us / 1e3:10.1f} {100 * us / total:5.1f}% {calls[name]:7d}  {name}")
    print(f"{total / 1e3:10.1f} 100.0%          all")


if __name__ == "__main__":
    main()
