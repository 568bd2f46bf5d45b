// race-suite: race
// memory: global
// between: blocks
// launch: block=128 grid=4
// args: int32[1]:zeros
// Thread 0 of every block increments a global counter with a plain read-modify-write.
extern "C" __global__ void gb_plain_block_counter(int* count)
{
    if (threadIdx.x == 0) count[0] = count[0] + 1;        // RACE
}
