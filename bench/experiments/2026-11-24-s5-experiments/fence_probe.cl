// Which device-scope fence does the compiler emit?
__kernel void probe(__global uint* restrict acc, volatile __global uint* restrict done, __global uint* restrict bins) {
  atomic_add(&acc[get_global_id(0) & 255], 1u);
#if defined(FENCE_CL2)
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
#elif defined(FENCE_ASM)
  asm volatile("membar.gl;" ::: "memory");
#else
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
  __local uint last;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
#if defined(COUNTER_CL2)
  if (get_local_id(0) == 0)
    last = atomic_fetch_add_explicit((volatile __global atomic_uint*)done, 1u, memory_order_acq_rel, memory_scope_device) == get_num_groups(0) - 1;
#else
  if (get_local_id(0) == 0) last = atomic_inc(done) == get_num_groups(0) - 1;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  if (last) bins[get_local_id(0)] = atomic_xchg(&acc[get_local_id(0)], 0u);
}
