// Models Parboil's mri-q (the Q matrix of non-Cartesian MRI reconstruction), written here from its
// description: ComputePhiMag squares the magnitude of each k-space sample's phi; ComputeQ gives
// each thread one voxel and loops over a chunk of k-space samples (an array of {Kx, Ky, Kz,
// PhiMag} structs every thread reads at the same address), accumulating Qr and Qi with sincos.
#define PI 3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f
#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues {
    float Kx;
    float Ky;
    float Kz;
    float PhiMag;
};

__global__ void ComputePhiMag_GPU(float* phiR, float* phiI, float* phiMag, int numK) {
    int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
    if (indexK < numK) {
        float real = phiR[indexK];
        float imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

__global__ void ComputeQ_GPU(int numK, int kGlobalIndex, float* x, float* y, float* z, float* Qr, float* Qi,
                             const kValues* ck) {
    float sX, sY, sZ, sQr, sQi;
    int xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
    sX = x[xIndex];
    sY = y[xIndex];
    sZ = z[xIndex];
    sQr = Qr[xIndex];
    sQi = Qi[xIndex];
    int kIndex = 0;
    for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex++, kGlobalIndex++) {
        float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        float cosArg = cosf(expArg);
        float sinArg = sinf(expArg);
        float phi = ck[kIndex].PhiMag;
        sQr += phi * cosArg;
        sQi += phi * sinArg;
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}
