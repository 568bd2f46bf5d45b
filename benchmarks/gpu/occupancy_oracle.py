"""Ask the CUDA driver for the occupancy of every kernel in tests/kernels/occupancy/ and record it.

For each kernel (every template instantiation, plus a -maxrregcount variant of pressure.cu) this
compiles the file with NVRTC through CuPy and with nvcc (kernelscope.resources), then calls
cuOccupancyMaxActiveBlocksPerMultiprocessor for block sizes 32..1024 under several dynamic
shared-memory sizes, with and without opting in to more than 48 KB, and under two carveout preferences.

    python3 benchmarks/gpu/occupancy_oracle.py --out DIR
writes DIR/occupancy_h200.csv, DIR/registers_h200.csv and DIR/h200_device.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kernelscope.resources import ptxas_usage  # noqa: E402

KERNEL_DIR = ROOT / "tests" / "kernels" / "occupancy"
ARCH = "sm_90"
BLOCK_SIZES = range(32, 1025, 32)
DEFAULT_DYNAMIC = (0, 1000, 8192, 40960, 49152)   # without opting in (48 KB is the default per-block cap)
CARVEOUTS = (0, 25, 50, 100)                      # percent of the maximum shared memory per SM
CARVEOUT_DYNAMIC = (0, 8192)
VARIANTS = [(path.name, ()) for path in sorted(KERNEL_DIR.glob("*.cu"))] + [("pressure.cu", ("-maxrregcount=40",))]

OCCUPANCY_FIELDS = ["file", "options", "kernel", "instantiation", "block_size", "dynamic_shared_bytes",
                    "max_dynamic_shared_bytes", "carveout", "active_blocks", "error"]
REGISTER_FIELDS = ["file", "options", "kernel", "instantiation", "num_regs", "ptxas_registers",
                   "shared_size_bytes", "ptxas_static_shared_bytes", "local_size_bytes", "const_size_bytes",
                   "max_threads_per_block", "ptxas_barriers", "ptxas_spill_stores", "ptxas_spill_loads"]


def _functions(source: str, options: tuple):
    """(kernel, instantiation, ResourceUsage, module loader) per entry of a file."""
    usages = ptxas_usage(source, ARCH, extra_options=options)
    entries = []
    for kernel, usage in sorted(usages.items()):
        members = usage.instantiations or ((usage.instantiation, usage),)
        entries += [(kernel, name, member) for name, member in members]
    return entries


def _load(source: str, options: tuple, names: list, regime: str):
    """A module of its own per regime: CuPy caches modules by source, so a comment tells them apart and
    attributes set on one regime's functions cannot leak into another."""
    import cupy
    return cupy.RawModule(code=f"{source}\n// regime: {regime}\n", options=(f"-arch={ARCH}", *options),
                          name_expressions=tuple(names))


def _active_blocks(function, block_size: int, dynamic: int):
    from cupy.cuda import driver
    try:
        return driver.occupancyMaxActiveBlocksPerMultiprocessor(function.kernel.ptr, block_size, dynamic), ""
    except Exception as exc:  # record what the driver said instead of stopping the sweep
        return -1, f"{type(exc).__name__}: {exc}"


def _sweep(rows, base, function, dynamic_sizes, max_dynamic, carveout):
    for dynamic in dynamic_sizes:
        for block_size in BLOCK_SIZES:
            blocks, error = _active_blocks(function, block_size, dynamic)
            rows.append(dict(base, block_size=block_size, dynamic_shared_bytes=dynamic,
                             max_dynamic_shared_bytes=max_dynamic, carveout=carveout, active_blocks=blocks,
                             error=error))


def measure():
    import cupy

    properties = cupy.cuda.runtime.getDeviceProperties(0)
    optin = int(properties["sharedMemPerBlockOptin"])
    occupancy_rows, register_rows = [], []
    for filename, options in VARIANTS:
        source = (KERNEL_DIR / filename).read_text()
        entries = _functions(source, options)
        names = [name for _, name, _ in entries]
        plain, opted, preferred = (_load(source, options, names, regime)
                                   for regime in ("default", "opt-in", "carveout"))
        for kernel, name, usage in entries:
            base = {"file": filename, "options": " ".join(options), "kernel": kernel, "instantiation": name}
            function = plain.get_function(name)
            register_rows.append(dict(
                base, num_regs=function.num_regs, ptxas_registers=usage.registers,
                shared_size_bytes=function.shared_size_bytes, ptxas_static_shared_bytes=usage.static_shared_bytes,
                local_size_bytes=function.local_size_bytes, const_size_bytes=function.const_size_bytes,
                max_threads_per_block=function.max_threads_per_block, ptxas_barriers=usage.barriers,
                ptxas_spill_stores=usage.spill_stores, ptxas_spill_loads=usage.spill_loads))
            _sweep(occupancy_rows, base, function, DEFAULT_DYNAMIC, 0, -1)

            function = opted.get_function(name)
            max_dynamic = optin - function.shared_size_bytes
            function.max_dynamic_shared_size_bytes = max_dynamic
            _sweep(occupancy_rows, base, function, (0, 49152, 102400, max_dynamic), max_dynamic, -1)

            function = preferred.get_function(name)
            for carveout in CARVEOUTS:
                function.preferred_shared_memory_carveout = carveout
                _sweep(occupancy_rows, base, function, CARVEOUT_DYNAMIC, 0, carveout)
    device = {key: (_text(value) if isinstance(value, bytes) else value)
              for key, value in properties.items() if isinstance(value, (int, float, bytes))}
    return occupancy_rows, register_rows, device


def _text(raw: bytes) -> str:
    """Names are NUL-padded text; the UUID is raw bytes, shown in hex."""
    try:
        return raw.rstrip(b"\0").decode()
    except UnicodeDecodeError:
        return raw.hex()


def _write_csv(path: Path, fields, rows):
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    occupancy_rows, register_rows, device = measure()
    _write_csv(args.out / "occupancy_h200.csv", OCCUPANCY_FIELDS, occupancy_rows)
    _write_csv(args.out / "registers_h200.csv", REGISTER_FIELDS, register_rows)
    (args.out / "h200_device.json").write_text(json.dumps(device, indent=1, sort_keys=True) + "\n")
    same = sum(r["num_regs"] == r["ptxas_registers"] for r in register_rows)
    errors = sum(bool(r["error"]) for r in occupancy_rows)
    print(f"{device.get('name')}: {len(register_rows)} kernels, {len(occupancy_rows)} occupancy queries "
          f"({errors} driver errors); NVRTC num_regs == nvcc ptxas registers for {same}/{len(register_rows)}")


if __name__ == "__main__":
    main()
