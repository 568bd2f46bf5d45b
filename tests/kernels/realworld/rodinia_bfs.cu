// Models Rodinia's bfs (Harish and Narayanan's level-synchronous breadth-first search), written
// here from its description: one thread per node; Kernel visits the edges (CSR lists) of every
// node in the frontier mask and marks unvisited neighbours, Kernel2 turns the updating mask into
// the next frontier and raises the "not finished" flag. Masks are bool arrays.
#define MAX_THREADS_PER_BLOCK 512

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask,
                       bool* g_updating_graph_mask, bool* g_graph_visited, int* g_cost, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited, bool* g_over,
                        int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}
