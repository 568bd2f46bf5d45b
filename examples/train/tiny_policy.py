"""Write a tiny, randomly initialised policy (a 2-layer Llama, hidden size 64, with a word-level
tokenizer built from the corpus prompts) to examples/train/tiny-policy/, for trying the trainer on
a CPU: it learns nothing useful, but every part of `kernelscope train` runs.

    pip install '.[train]'
    python examples/train/tiny_policy.py
    kernelscope train examples/train/grpo_cpu.toml
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(output: Path = HERE / "tiny-policy") -> int:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    from kernelscope.rl.prompts import first_turn
    from kernelscope.rl.tasks import load_corpus

    tasks = load_corpus(str(HERE.parent.parent / "corpus"))
    texts = [first_turn(task, chat=False) for task in tasks.values()]
    words = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    words.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    words.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[UNK]", "[PAD]", "[EOS]"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=words, unk_token="[UNK]", pad_token="[PAD]",
                                        eos_token="[EOS]")
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=2048,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    LlamaForCausalLM(config).save_pretrained(output)
    tokenizer.save_pretrained(output)
    print(f"tiny policy ({len(tokenizer)} words) written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
