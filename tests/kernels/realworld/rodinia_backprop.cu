// Models Rodinia's backprop, written here from its description: bpnn_adjust_weights_cuda updates
// the input-to-hidden weights of a (in+1) x (hid+1) matrix with momentum, one 16x16 block per
// 16 input rows, threads of a row spread over the hidden units; row 0 (the bias) is updated by
// the first row of the first block.
#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void bpnn_adjust_weights_cuda(float* delta, int hid, float* ly, int in, float* w, float* oldw) {
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    }
}
