#!/bin/bash
# `kernelscope eval` of the corpus's implementations as completions, for a tree from before the
# corpus's launches moved into the files and for the migrated one, in one device call (the eval's
# speedups move between calls with the references' timing; side by side they can be compared):
#   bash benchmarks/gpu/eval_both_trees_h200.sh "$OUT" OLD_TREE NEW_TREE
# then: python3 benchmarks/gpu/compare_corpus_runs.py OUT/eval_old.json OUT/eval_new.json
out=${1:?output folder}
old=${2:?tree from before the move}
new=${3:?migrated tree}
for t in old new; do
  tree=$old; [ "$t" = new ] && tree=$new
  (cd "$tree" && export PYTHONPATH="/tmp/site:$tree" && python3 benchmarks/corpus_completions.py -o "/tmp/cc_$t.jsonl" &&
   timeout 60 python3 -m kernelscope eval "/tmp/cc_$t.jsonl" --repeats 5 --format json -o "$out/eval_$t.json" &&
   python3 -c "import json,sys; from kernelscope.report.eval_table import eval_table; print(eval_table(json.load(open(sys.argv[1]))), end='')" \
       "$out/eval_$t.json" | tail -1)
done
