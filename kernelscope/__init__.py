"""kernelscope: static and dynamic analysis of CUDA kernels, and rewards built from it."""

__version__ = "0.1.0"
