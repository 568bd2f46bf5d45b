"""A bounded load test of `kernelscope serve`: N requests from C concurrent clients, latency and memory.

Starts the real command (static reward, samples scored in worker processes) on a free loopback port,
warms it with one request per client, then sends `--requests` requests, `--concurrency` at a time,
each one sample: a corpus implementation wrapped as a model's answer, labelled with its problem,
round robin over the corpus. A thread asks /health every 0.2 s meanwhile. Prints request latency
(p50, p90, p99, max), throughput, /health latency, status counts, and the resident memory of the
server and its scoring workers after the warm-up and after the load (from /proc).

    python benchmarks/bench_serve_load.py [--requests 2000] [--concurrency 16] [--workers 4]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def samples() -> list[tuple[str, str]]:
    """(completion, label) for every implementation of every corpus problem."""
    found = []
    for spec in sorted((ROOT / "corpus").glob("*/spec.toml")):
        for source in sorted(spec.parent.glob("*.cu")):
            found.append((f"Here is the kernel.\n```cuda\n{source.read_text()}\n```\n", spec.parent.name))
    return found


def post(url: str, completion: str, label: str) -> tuple[int, float]:
    body = json.dumps({"query": [completion], "prompts": [""], "labels": [label]}).encode()
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=300) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except OSError:
        status = 0
    return status, time.perf_counter() - started


def rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants."""
    total = 0
    for proc in [pid] + descendants(pid):
        try:
            for line in Path(f"/proc/{proc}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def descendants(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return children + [d for c in children for d in descendants(c)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()

    env = {**os.environ, "KERNELSCOPE_REWARD_MODE": "static"}
    server = subprocess.Popen([sys.executable, "-m", "kernelscope", "serve", "--port", "0",
                               "--workers", str(args.workers), "--queue-size", str(4 * args.concurrency)],
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stderr.readline()
        url = line.split(" at ")[1].split()[0]
        base = url.removesuffix("/get_reward")
        print(line.strip())
        corpus = samples()
        with ThreadPoolExecutor(args.concurrency) as pool:
            warm = list(pool.map(lambda i: post(url, *corpus[i % len(corpus)]), range(args.concurrency)))
        assert all(status == 200 for status, _ in warm), warm
        rss_before = rss_mb(server.pid)

        health_latency: list[float] = []
        stop = threading.Event()

        def watch_health():
            while not stop.is_set():
                started = time.perf_counter()
                with urllib.request.urlopen(base + "/health", timeout=60) as response:
                    response.read()
                health_latency.append(time.perf_counter() - started)
                time.sleep(0.2)

        watcher = threading.Thread(target=watch_health, daemon=True)
        watcher.start()
        started = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            results = list(pool.map(lambda i: post(url, *corpus[i % len(corpus)]), range(args.requests)))
        wall = time.perf_counter() - started
        stop.set()
        watcher.join()
        rss_after = rss_mb(server.pid)
        with urllib.request.urlopen(base + "/health", timeout=30) as response:
            final_health = json.loads(response.read())
    finally:
        server.terminate()
        server.wait(30)
        server.stderr.close()

    latencies = [seconds for _, seconds in results]
    statuses: dict = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    print(f"{args.requests} requests, {args.concurrency} concurrent, {args.workers} workers, "
          f"{len(corpus)} distinct samples; os.cpu_count()={os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")
    print(f"status counts: {dict(sorted(statuses.items()))}")
    print(f"wall {wall:.1f} s, {args.requests / wall:.1f} requests/s")
    print(f"latency p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p90 {percentile(latencies, 0.9) * 1000:.0f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms, "
          f"mean {statistics.mean(latencies) * 1000:.0f} ms")
    print(f"/health during the load: {len(health_latency)} probes, p50 {percentile(health_latency, 0.5) * 1000:.1f} ms, "
          f"max {max(health_latency) * 1000:.1f} ms")
    print(f"resident memory, server + workers: {rss_before:.0f} MB after warm-up, {rss_after:.0f} MB after "
          f"the load ({rss_after - rss_before:+.0f} MB)")
    print(f"server counters: served {final_health['served']}, refused {final_health['refused']}, "
          f"timed out {final_health['timed_out']}, workers killed {final_health['sandbox_killed']}")


if __name__ == "__main__":
    main()
