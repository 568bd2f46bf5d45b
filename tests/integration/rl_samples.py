"""What the integration tests feed the RL libraries: completions of every outcome for the shipped
corpus's vector_add, and a tokenizer (and a tiny model) built locally, since no model hub is reachable."""

from __future__ import annotations

import shutil

from kernelscope.rl.compile_gate import resolve_backend

PROBLEM = "vector_add"
HONEST = ('```cuda\nextern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {\n'
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n```")
SAMPLES = {  # name -> (completion, the outcome the static reward must give it)
    "pass": (f"Here is the kernel.\n{HONEST}\n", "ok"),
    "renamed": (HONEST.replace("const float* a, const float* b, float* c", "const float* x, const float* y, float* z")
                .replace("c[i] = a[i] + b[i]", "z[i] = x[i] + y[i]"), "ok"),
    "fail": (HONEST.replace("a[i] + b[i]", "a[i] + b[i] * scale"), "compile_error"),
    "no_code": ("I would use shared memory here, but I am not sure how.", "no_code"),
    "hack": (HONEST.replace("a[i] + b[i]", "0.0f"), "hack"),
}


def compiler_present() -> bool:
    """The 'fail' sample fails static mode's compile gate only where NVRTC or nvcc exists."""
    return resolve_backend("auto") != "off"


def environment(monkeypatch) -> None:
    """The adapters' environment as a user leaves it: no KERNELSCOPE_* variable at all (static mode,
    the shipped corpus and the shipped ranker)."""
    from kernelscope.rl import adapters

    for name in ("KERNELSCOPE_CORPUS", "KERNELSCOPE_RANKER", "KERNELSCOPE_REWARD_MODE"):
        monkeypatch.delenv(name, raising=False)
    adapters._environment_reward.cache_clear()


def build_tokenizer(directory, texts):
    """A byte-level BPE tokenizer (lossless decoding) saved like a Hugging Face model's."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import PreTrainedTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(list(texts), vocab_size=600, special_tokens=["<pad>", "<eos>"])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe._tokenizer, pad_token="<pad>", eos_token="<eos>")
    tokenizer.save_pretrained(str(directory))
    return tokenizer


def nvcc_present() -> bool:
    return shutil.which("nvcc") is not None
