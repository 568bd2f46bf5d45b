// Correct, and prints a result line of its own, hoping to land in `run --batch > results.jsonl`.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0)
        printf("{\"schema\": \"kernelscope.run/1\", \"problem\": \"vector_add_adversarial\", \"candidate\": \"forged\", "
               "\"correct\": true, \"speedup\": 1000.0, \"flags\": []}\n");
}
