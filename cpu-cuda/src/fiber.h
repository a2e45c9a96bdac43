// A CUDA thread on the CPU backend: its own stack and registers. The
// scheduler resumes it; it suspends itself back to the scheduler at each
// sync point. Internal to the backend.
//
// On x86-64 the switch is written here, inline where it is called:
// boost.context's switch is a function that also saves and restores the x87
// and SSE control words, and on a 256-thread tree reduction (perf, 2026-11-27)
// those loads took a quarter of the launch, and the returns after each switch,
// which the processor cannot predict across stacks, most of the rest. No
// kernel thread holds a rounding mode of its own across a sync point (the
// backend's _rn/_rd intrinsics set and restore it within one call), so the
// switch keeps only the stack, the frame pointer and where to go on; the
// compiler saves whatever else it needs around it. Elsewhere boost.context's
// switch does the work (WARPDRILL_FIBER_FCONTEXT chooses it on x86-64 too).
#pragma once

#include <boost/context/stack_context.hpp>

#include "stack_pool.h"

#if defined(__x86_64__) && !defined(WARPDRILL_FIBER_FCONTEXT)
#define WARPDRILL_FIBER_SWITCH_X86_64 1
#else
#include <boost/context/detail/fcontext.hpp>
#endif

namespace warpdrill::cpu::detail {

// Thrown at a suspended fiber's sync point when the fiber is ended before its
// body returned (a fault elsewhere ended the block): its stack unwinds, its
// destructors run. A fiber's body must let it pass.
struct FiberUnwind {};

class Fiber {
  public:
    using Body = void (*)(void* argument);

    Fiber() = default;
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // Sets the fiber to run body(argument) from the start when next resumed,
    // on a stack from `stacks` that it keeps for later starts. A fiber still
    // suspended in its body is unwound first.
    void start(StackCache& stacks, Body body, void* argument);
    // From the scheduler: runs the fiber until it suspends or its body returns.
    void resume();
    // From inside the fiber: back to the scheduler, until resumed again.
    void suspend();
    // The fiber is suspended where it cannot unwind (an instrumentation
    // callback, whose caller has no unwind information): it is never resumed
    // again, and its stack is given up rather than reused.
    void abandon();

  private:
    enum class State { idle, started, in_body };
    // The body, called on the fiber's own stack by its first frame.
    [[noreturn]] static void run(Fiber* self);
    void end_body();
    // Back to the scheduler once the body has returned, never to come back.
    [[noreturn]] void leave();
#if WARPDRILL_FIBER_SWITCH_X86_64
    // Saves where this stack goes on in `save`, then goes on from `resume`.
    static void switch_stacks(void*& save, void* resume);
#else
    static void first_frame(boost::context::detail::transfer_t from);
#endif

    // Set while end_body() resumes a fiber to unwind it. One flag for all the
    // fibers of an OS thread, not one each: every fiber tests it after every
    // switch, and a flag of the fiber's own would be one cache line more to
    // fetch there.
    static constinit inline thread_local bool unwinding_ = false;
    // What a switch reads and writes first (FiberThread keeps it in a hot cache line).
    void* fiber_context_ = nullptr;    // where the fiber goes on, while it is suspended
    void* resumer_context_ = nullptr;  // where the scheduler goes on, while the fiber runs
    State state_ = State::idle;
    StackCache* stacks_ = nullptr;
    boost::context::stack_context stack_{};
    Body body_ = nullptr;
    void* argument_ = nullptr;
};

#if WARPDRILL_FIBER_SWITCH_X86_64
// Pushes where to go on and the frame pointer, saves the stack pointer, and
// does the same backwards from `resume`. No call and no return: a return
// after a switch lands on another stack than the processor predicts, and each
// one costs a pipeline flush. The red zone below the stack pointer, which the
// caller may be using, is stepped over first. Every other register is
// declared clobbered, so the compiler keeps nothing in them across.
[[gnu::always_inline]] inline void Fiber::switch_stacks(void*& save, void* resume) {
    void** save_at = &save;
    asm volatile(
        "subq $128, %%rsp\n\t"
        "leaq 1f(%%rip), %%rax\n\t"
        "pushq %%rax\n\t"
        "pushq %%rbp\n\t"
        "movq %%rsp, (%%rdi)\n\t"
        "movq %%rsi, %%rsp\n\t"
        "popq %%rbp\n\t"
        "popq %%rax\n\t"
        "jmpq *%%rax\n"
        "1:\n\t"
        "addq $128, %%rsp\n\t"
        : "+D"(save_at), "+S"(resume)
        :
        : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1",
          "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
          "xmm14", "xmm15", "memory", "cc");
}

inline void Fiber::resume() { switch_stacks(resumer_context_, fiber_context_); }

inline void Fiber::suspend() {
    switch_stacks(fiber_context_, resumer_context_);
    if (unwinding_) throw FiberUnwind{};
}
#endif

}  // namespace warpdrill::cpu::detail
