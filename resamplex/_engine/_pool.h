/* The kernels' thread pool: a parallel loop whose caller never waits for a thread that has
 * not started.
 *
 * rx_pool_run(body, ctx, n, nthreads) calls body(ctx, lo, hi, tid, NULL, NULL) for ranges
 * [lo, hi) that together cover [0, n) once, on the calling thread (tid 0) and up to
 * nthreads - 1 pool threads (tid 1 .. nthreads - 1, each tid on one thread at a time, so
 * per-thread scratch is indexed by tid). With one thread, or when no pool is free, it is one
 * call body(ctx, 0, n, 0): a site needs no serial loop of its own, and a body that walks its
 * range row after row (without a division per row) does so over the whole pass.
 * Items are claimed in ranges (chunks) from one shared counter, each a share of what is left
 * (half of it over the threads, so chunks shrink toward the end), and never more than a
 * 1/16 share of one thread's items: a thread that is slow, or loses its core, holds little.
 * The caller claims too, and once
 * every item is claimed it waits only for the chunks other threads have already begun: a
 * pool thread that had not started by then finds nothing left and goes back to sleep. So
 * where every core is busy with another process (a peer library's spinning threads, another
 * program), a call costs about its one-thread time instead of waiting for a descheduled
 * worker, which is what an OpenMP parallel region does at its closing barrier (measured:
 * 7-17 ms for the first 2-thread call after `import cv2`, 5-10x stalls beside torch and ONNX
 * Runtime).
 *
 * Several callers at once (threads of the Python program, the GIL released) each take a free
 * pool of POOLS; when none is free, the call runs on its caller alone. Pool threads spin
 * SPIN_NS after their last chunk (calls of a program, and small calls back to back, reuse them
 * awake), then sleep on a condition variable. After fork() the child has no pool threads: the
 * pools are reset and start new threads when needed.
 *
 * Without POSIX threads (MSVC) the same call is an OpenMP loop (dynamic schedule), or a plain
 * loop without OpenMP. Results never depend on which thread computed an item.
 */
#ifndef RESAMPLEX_POOL_H
#define RESAMPLEX_POOL_H

#include <stddef.h>
#include <stdint.h>

/* t1 and t2 are always NULL: a body specialised for element types (a Cython fused function)
   names them with its own pointer types, so the specialisation is picked by its signature. */
typedef void (*rx_body_fn)(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int tid, const void *t1,
                           const void *t2);

#if defined(_WIN32) || !(defined(__GNUC__) || defined(__clang__))

#ifdef _OPENMP
#include <omp.h>
#endif

static int rx_pool_threads(void) { return 0; }

static void rx_pool_run(rx_body_fn body, void *ctx, Py_ssize_t n, int nthreads) {
#ifdef _OPENMP
    Py_ssize_t i;
    if (nthreads > 1 && n > 1) {
        #pragma omp parallel for schedule(dynamic) num_threads(nthreads)
        for (i = 0; i < n; i++)
            body(ctx, i, i + 1, omp_get_thread_num(), NULL, NULL);
        return;
    }
#endif
    if (n > 0)
        body(ctx, 0, n, 0, NULL, NULL);
}

#else  /* POSIX threads, GCC/Clang atomics */

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RX_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define RX_PAUSE() __asm__ __volatile__("yield")
#else
#define RX_PAUSE() ((void)0)
#endif

#define RX_POOLS 4
#define RX_MAX_WORKERS 255
#define RX_SPIN_NS 5000000       /* a pool thread waits awake this long for the next call */
#define RX_PAUSE_NS 100000       /* ... the first part of it spinning, then yielding its core */
#define RX_JOIN_SPIN_NS 50000    /* the caller spins this long for begun chunks, then sleeps */

#define RX_LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define RX_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define RX_ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)

typedef struct rx_pool {
    pthread_mutex_t owner;     /* held by the call using this pool */
    pthread_mutex_t lock;      /* guards the sleeps below */
    pthread_cond_t wake;       /* pool threads wait here for the next job */
    pthread_cond_t joined;     /* the caller waits here for begun chunks */
    int nworkers;              /* pool threads started (owner's field) */
    /* the job; written by the owner while no thread is inside it (busy == 0, open == 0) */
    rx_body_fn body;
    void *ctx;
    Py_ssize_t n;
    Py_ssize_t split;          /* a claim takes (n - next) / split items, */
    Py_ssize_t cap;            /* at most cap, at least one */
    int want;                  /* pool threads 1 .. want take part */
    /* shared, atomic */
    long gen;                  /* bumped for every job */
    int open;                  /* 1 while the job's items may still be claimed */
    Py_ssize_t next;           /* the next unclaimed item */
    int busy;                  /* pool threads inside the job */
    int sleepers;              /* pool threads asleep on wake */
    int caller_asleep;         /* the caller asleep on joined */
} rx_pool;

typedef struct rx_worker_arg {
    rx_pool *pool;
    int tid;
} rx_worker_arg;

static rx_pool rx_pools[RX_POOLS];
static rx_worker_arg rx_args[RX_POOLS][RX_MAX_WORKERS + 1];
static pthread_mutex_t rx_init_lock = PTHREAD_MUTEX_INITIALIZER;
static int rx_inited = 0;

static int64_t rx_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void rx_pool_reset(rx_pool *p) {
    pthread_mutex_init(&p->owner, NULL);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->joined, NULL);
    p->nworkers = 0;
    p->body = NULL;
    p->ctx = NULL;
    p->n = p->split = p->cap = 0;
    p->want = 0;
    p->gen = 0;
    p->open = 0;
    p->next = 0;
    p->busy = 0;
    p->sleepers = 0;
    p->caller_asleep = 0;
}

/* fork() copies only the calling thread: the child starts with no pool threads and with
   every lock free (a call of another thread of the parent held its pool at the fork). */
static void rx_pool_after_fork_child(void) {
    int i;
    pthread_mutex_init(&rx_init_lock, NULL);
    for (i = 0; i < RX_POOLS; i++)
        rx_pool_reset(&rx_pools[i]);
}

static void rx_pool_init_once(void) {
    int i;
    pthread_mutex_lock(&rx_init_lock);
    if (!rx_inited) {
        for (i = 0; i < RX_POOLS; i++)
            rx_pool_reset(&rx_pools[i]);
        pthread_atfork(NULL, NULL, rx_pool_after_fork_child);
        __atomic_store_n(&rx_inited, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&rx_init_lock);
}

/* Claim and run chunks of the open job until none is left. */
static void rx_pool_claim(rx_pool *p, int tid) {
    rx_body_fn body = p->body;
    void *ctx = p->ctx;
    Py_ssize_t n = p->n, split = p->split, cap = p->cap, i, end, size;
    i = RX_LOAD(&p->next);
    for (;;) {
        if (i >= n)
            return;
        size = (n - i) / split;
        end = i + (size < 1 ? 1 : size > cap ? cap : size);
        /* on failure i becomes the counter's value now, and the claim is tried again */
        if (!__atomic_compare_exchange_n(&p->next, &i, end, 0, __ATOMIC_SEQ_CST,
                                         __ATOMIC_SEQ_CST))
            continue;
        body(ctx, i, end, tid, NULL, NULL);
        i = RX_LOAD(&p->next);
    }
}

static void *rx_pool_worker(void *argp) {
    rx_worker_arg *arg = (rx_worker_arg *)argp;
    rx_pool *p = arg->pool;
    int tid = arg->tid, k, yielding = 0;
    long seen = RX_LOAD(&p->gen);
    int64_t start;
    for (;;) {
        /* wait for a new job: spin a while, then sleep */
        if (RX_LOAD(&p->gen) == seen) {
            start = rx_now_ns();
            for (k = 0; RX_LOAD(&p->gen) == seen; k++) {
                if (!yielding) {
                    RX_PAUSE();
                    if ((k & 63) == 63 && rx_now_ns() - start > RX_PAUSE_NS)
                        yielding = 1;
                } else {
                    sched_yield();
                    if ((k & 15) == 15 && rx_now_ns() - start > RX_SPIN_NS)
                        break;
                }
            }
            yielding = 0;
        }
        if (RX_LOAD(&p->gen) == seen) {
            pthread_mutex_lock(&p->lock);
            RX_ADD(&p->sleepers, 1);
            while (RX_LOAD(&p->gen) == seen)
                pthread_cond_wait(&p->wake, &p->lock);
            RX_ADD(&p->sleepers, -1);
            pthread_mutex_unlock(&p->lock);
        }
        seen = RX_LOAD(&p->gen);
        /* enter the job only while it is open: the caller, once it has closed the job, waits
           for busy == 0, so a thread counted in busy reads the job's fields safely */
        RX_ADD(&p->busy, 1);
        if (RX_LOAD(&p->open) && tid <= p->want)
            rx_pool_claim(p, tid);
        if (RX_ADD(&p->busy, -1) == 0 && RX_LOAD(&p->caller_asleep)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->joined);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

/* Start pool threads up to `want`; fewer if the system refuses (the call still completes). */
static void rx_pool_grow(rx_pool *p, int want, int index) {
    pthread_attr_t attr;
    pthread_t th;
    sigset_t all, old;
    if (want > RX_MAX_WORKERS)
        want = RX_MAX_WORKERS;
    if (p->nworkers >= want)
        return;
    /* pool threads take no asynchronous signals (Python handles them on its main thread);
       a fault stays theirs, so that faulthandler and debuggers see it where it happened */
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGABRT);
    sigdelset(&all, SIGTRAP);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (p->nworkers < want) {
        rx_worker_arg *a = &rx_args[index][p->nworkers + 1];
        a->pool = p;
        a->tid = p->nworkers + 1;
        if (pthread_create(&th, &attr, rx_pool_worker, a) != 0)
            break;
        RX_STORE(&p->nworkers, p->nworkers + 1);
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int rx_pool_threads(void) {
    int i, total = 0;
    if (!__atomic_load_n(&rx_inited, __ATOMIC_ACQUIRE))
        return 0;
    for (i = 0; i < RX_POOLS; i++)
        total += RX_LOAD(&rx_pools[i].nworkers);
    return total;
}

static void rx_pool_run(rx_body_fn body, void *ctx, Py_ssize_t n, int nthreads) {
    rx_pool *p = NULL;
    int k, index = 0;
    int64_t until;
    if (nthreads > n)
        nthreads = n > 1 ? (int)n : 1;
    if (nthreads > 1) {
        if (!__atomic_load_n(&rx_inited, __ATOMIC_ACQUIRE))
            rx_pool_init_once();
        for (index = 0; index < RX_POOLS; index++)
            if (pthread_mutex_trylock(&rx_pools[index].owner) == 0) {
                p = &rx_pools[index];
                break;
            }
    }
    if (p == NULL) {   /* one thread asked for, or every pool in use: the caller alone */
        if (n > 0)
            body(ctx, 0, n, 0, NULL, NULL);
        return;
    }
    rx_pool_grow(p, nthreads - 1, index);
    p->body = body;
    p->ctx = ctx;
    p->n = n;
    p->split = 2 * (Py_ssize_t)nthreads;
    p->cap = n / (16 * (Py_ssize_t)nthreads);
    if (p->cap < 1)
        p->cap = 1;
    p->want = nthreads - 1;
    RX_STORE(&p->next, 0);
    RX_STORE(&p->open, 1);
    RX_ADD(&p->gen, 1);
    if (RX_LOAD(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    rx_pool_claim(p, 0);
    /* every item is claimed: close the job and wait for the chunks already begun */
    RX_STORE(&p->open, 0);
    if (RX_LOAD(&p->busy) != 0) {
        until = rx_now_ns() + RX_JOIN_SPIN_NS;
        for (k = 0; RX_LOAD(&p->busy) != 0; k++) {
            RX_PAUSE();
            if ((k & 63) == 63 && rx_now_ns() > until)
                break;
        }
        if (RX_LOAD(&p->busy) != 0) {
            pthread_mutex_lock(&p->lock);
            RX_STORE(&p->caller_asleep, 1);
            while (RX_LOAD(&p->busy) != 0)
                pthread_cond_wait(&p->joined, &p->lock);
            RX_STORE(&p->caller_asleep, 0);
            pthread_mutex_unlock(&p->lock);
        }
    }
    pthread_mutex_unlock(&p->owner);
}

#endif
#endif
