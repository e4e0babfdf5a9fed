/* SPDX-License-Identifier: Apache-2.0 */
/* MIPS_THREADING=pthreads: a persistent pool, for toolchains with no OpenMP runtime
 * (clang's riscv64 cross toolchain on Debian). Workers start on the first job that
 * needs them and then sleep on a condition variable between jobs: nothing spins.
 * One job runs at a time; a second caller meanwhile runs its parts itself. After
 * fork() the child starts with no workers (pthread_atfork). */
#define _POSIX_C_SOURCE 200809L /* sigset_t, pthread_sigmask */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "threading/threading.h"

const char mips_threading_backend[] = "pthreads";

typedef struct pool {
  pthread_mutex_t lock;
  pthread_cond_t wake; /* workers: a new job */
  pthread_cond_t done; /* its caller: the last part finished */
  int workers;         /* started, all alive */
  bool busy;
  uint64_t generation; /* one per job */
  mips_task_fn fn;
  void *ctx;
  int count, next, unfinished;
} pool;

static pool the_pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
                        .wake = PTHREAD_COND_INITIALIZER,
                        .done = PTHREAD_COND_INITIALIZER};
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static _Thread_local bool in_task;

/* A caller inside its own OpenMP parallel region already has a thread per core: the
 * call runs on that thread, as with the OpenMP backend. Weak, so that libmips does not
 * depend on an OpenMP runtime; null when the program has none. */
extern int omp_in_parallel(void) __attribute__((weak));

static bool in_callers_parallel_region(void) { return omp_in_parallel && omp_in_parallel(); }

/* Claims and runs parts of the current job until none is left. Called, and returns,
 * with the lock held. */
static void run_parts(pool *p) {
  while (p->next < p->count) {
    const int index = p->next++, count = p->count;
    const mips_task_fn fn = p->fn;
    void *const ctx = p->ctx;
    pthread_mutex_unlock(&p->lock);
    in_task = true;
    fn(ctx, index, count);
    in_task = false;
    pthread_mutex_lock(&p->lock);
    if (--p->unfinished == 0) pthread_cond_signal(&p->done);
  }
}

static void *worker_main(void *arg) {
  pool *p = arg;
  uint64_t seen = 0; /* generations start at 1: a new worker joins the current job */
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
    seen = p->generation;
    run_parts(p);
  }
  return NULL;
}

/* Workers take no signals: they stay with the threads the program created. */
static bool start_worker(pool *p) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attr) == 0) {
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    started = pthread_create(&thread, &attr, worker_main, p) == 0;
    pthread_attr_destroy(&attr);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return started;
}

static void before_fork(void) { pthread_mutex_lock(&the_pool.lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&the_pool.lock); }
static void after_fork_in_child(void) {
  /* Only the forking thread exists here: the workers and any job are gone. */
  the_pool.workers = 0;
  the_pool.busy = false;
  the_pool.count = the_pool.next = the_pool.unfinished = 0;
  pthread_cond_init(&the_pool.wake, NULL);
  pthread_cond_init(&the_pool.done, NULL);
  pthread_mutex_unlock(&the_pool.lock);
}
static void register_fork_handlers(void) {
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

static void run_inline(int count, mips_task_fn fn, void *ctx) {
  for (int i = 0; i < count; ++i) fn(ctx, i, count);
}

void mips_parallel_run(int count, mips_task_fn fn, void *ctx) {
  if (count <= 1 || in_task || in_callers_parallel_region()) {
    run_inline(count, fn, ctx);
    return;
  }
  pool *p = &the_pool;
  pthread_once(&atfork_once, register_fork_handlers);
  /* Waiting for the workers is a cancellation point. A caller cancelled there would
   * leave the pool locked and busy with a job on its dead stack, so the whole call is
   * one uncancellable step; a pending cancel acts at the caller's next point. */
  int cancel_state;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
  pthread_mutex_lock(&p->lock);
  if (p->busy) {
    pthread_mutex_unlock(&p->lock);
    pthread_setcancelstate(cancel_state, NULL);
    run_inline(count, fn, ctx);
    return;
  }
  p->busy = true;
  /* If a thread cannot start, fewer take part: the caller runs what is left. */
  while (p->workers < count - 1 && start_worker(p)) p->workers++;
  p->fn = fn, p->ctx = ctx, p->count = count, p->next = 0, p->unfinished = count;
  p->generation++;
  pthread_cond_broadcast(&p->wake);
  run_parts(p);
  while (p->unfinished > 0) pthread_cond_wait(&p->done, &p->lock);
  p->busy = false;
  pthread_mutex_unlock(&p->lock);
  pthread_setcancelstate(cancel_state, NULL);
}
