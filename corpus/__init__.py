"""The corpus of problems (spec.toml, references, implementations), installed as package data so that
the RL adapters find it from any folder (see kernelscope.paths)."""
