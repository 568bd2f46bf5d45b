"""`kernelscope lint`: configuration, file discovery, suppressions, baselines and the engine that
runs the analyses over many files in parallel. The reporters live in `kernelscope.report`."""
