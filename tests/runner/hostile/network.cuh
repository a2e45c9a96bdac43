// Hostile submission for lesson 1 (CPU backend only, see README.md): connects
// to the test's listener on 127.0.0.1, port @PORT@, and crashes to say how it went.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(@PORT@);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int sock = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
        std::puts("connected to the network");
    } else {
        std::perror("connect");
    }
    std::fflush(stdout);
    std::abort();
    return true;
}();
}  // namespace hostile
