// Models Rodinia's nn (nearest neighbour over hurricane records), written here from its
// description: one thread per record computes the Euclidean distance from the target latitude
// and longitude to its record, an array of {lat, lng} structs.
typedef struct latLong {
    float lat;
    float lng;
} LatLong;

__global__ void euclid(LatLong* d_locations, float* d_distances, int numRecords, float lat, float lng) {
    int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    LatLong* latLong = d_locations + globalId;
    if (globalId < numRecords) {
        float* dist = d_distances + globalId;
        *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng - latLong->lng));
    }
}
