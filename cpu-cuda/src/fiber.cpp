#include "fiber.h"

#include <cstdint>
#include <cstdlib>

namespace warpdrill::cpu::detail {

#if WARPDRILL_FIBER_SWITCH_X86_64

// A new fiber's first frame, gone to by switch_stacks with the Fiber in rbp
// and Fiber::run's address on the stack: calls run(fiber), which never
// returns. Its return address is undefined, so a backtrace ends here, as at
// a thread's first frame.
extern "C" void warpdrill_fiber_first_frame();
asm(R"(
    .text
    .globl warpdrill_fiber_first_frame
    .hidden warpdrill_fiber_first_frame
    .type warpdrill_fiber_first_frame, @function
warpdrill_fiber_first_frame:
    .cfi_startproc
    .cfi_undefined rip
    movq %rbp, %rdi
    popq %rax
    xorl %ebp, %ebp
    andq $-16, %rsp
    callq *%rax
    ud2
    .cfi_endproc
    .size warpdrill_fiber_first_frame, .-warpdrill_fiber_first_frame
)");

namespace {

// The top of a fresh stack as switch_stacks leaves one: the frame pointer it
// pops (the Fiber), where it goes on (the first frame), and what the first
// frame calls.
void* fresh_context(void* stack_top, void* self, void (*run)(Fiber*)) {
    auto* top = reinterpret_cast<void**>(reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15});
    void** frame = top - 4;
    frame[0] = self;
    frame[1] = reinterpret_cast<void*>(&warpdrill_fiber_first_frame);
    frame[2] = reinterpret_cast<void*>(run);
    frame[3] = nullptr;
    return frame;
}

}  // namespace

void Fiber::leave() {
    switch_stacks(fiber_context_, resumer_context_);
    std::abort();  // never resumed: start() gives the fiber a fresh context
}

#else

namespace fcontext = boost::context::detail;

void Fiber::resume() { fiber_context_ = fcontext::jump_fcontext(fiber_context_, this).fctx; }

void Fiber::suspend() {
    resumer_context_ = fcontext::jump_fcontext(resumer_context_, nullptr).fctx;
    if (unwinding_) throw FiberUnwind{};
}

void Fiber::leave() {
    fcontext::jump_fcontext(resumer_context_, nullptr);
    std::abort();  // never resumed: start() gives the fiber a fresh context
}

// boost.context hands a new fiber the scheduler's context with its first switch.
void Fiber::first_frame(fcontext::transfer_t from) {
    auto* const self = static_cast<Fiber*>(from.data);
    self->resumer_context_ = from.fctx;
    run(self);
}

#endif

Fiber::~Fiber() {
    end_body();
    if (stack_.sp) stacks_->give(stack_);
}

void Fiber::start(StackCache& stacks, Body body, void* argument) {
    end_body();
    if (!stack_.sp) {
        stacks_ = &stacks;
        stack_ = stacks.take();
    }
    body_ = body;
    argument_ = argument;
    state_ = State::started;
#if WARPDRILL_FIBER_SWITCH_X86_64
    fiber_context_ = fresh_context(stack_.sp, this, &Fiber::run);
#else
    fiber_context_ = fcontext::make_fcontext(stack_.sp, stack_.size, &Fiber::first_frame);
#endif
}

void Fiber::abandon() {
    state_ = State::idle;
    stack_ = {};  // never unmapped: the suspended frames on it stay as they are
}

// A fiber in its body is resumed once more to unwind from where it waits.
void Fiber::end_body() {
    if (state_ != State::in_body) {
        state_ = State::idle;
        return;
    }
    unwinding_ = true;
    resume();
    unwinding_ = false;
}

void Fiber::run(Fiber* self) {
    self->state_ = State::in_body;
    try {
        self->body_(self->argument_);
    } catch (const FiberUnwind&) {
    }
    self->state_ = State::idle;
    self->leave();
}

}  // namespace warpdrill::cpu::detail
