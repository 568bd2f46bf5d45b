void spmv_ell(const float *vals, const int *col, const float *x, float *y, int rows, int nnz)
{
    for (int r = 0; r < rows; r++) {
        float acc = 0.0f;
        for (int k = 0; k < nnz; k++)
            acc += vals[r * nnz + k] * x[col[r * nnz + k]];
        y[r] = acc;
    }
}
