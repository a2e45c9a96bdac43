// A kernel that calls a member function declared for the host alone: nvcc
// refuses it, "calling a __host__ function("Point::norm2() const") from a
// __global__ function("norms") is not allowed", and so does cudacc, which
// names it where nothing else in the translation unit has that name.
struct Point {
    float x, y;
    float norm2() const { return x * x + y * y; }
};

__global__ void norms(const Point* points, float* out) { out[threadIdx.x] = points[threadIdx.x].norm2(); }
