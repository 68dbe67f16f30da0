#ifndef KINEMA_CBASELINE_H
#define KINEMA_CBASELINE_H

/* Plain C baselines for the benchmarks: the same damped spring x'' = -k(x - 1) - c x' (unit mass),
   stepped by a hand-written classic RK4 and by GSL's rk4 driver with a C right-hand side. */

typedef struct { double x, v; } cbaseline_state;

/* n RK4 steps of size h; returns the final state. */
cbaseline_state cbaseline_rk4(cbaseline_state s, double k, double c, double h, long n);

/* n fixed steps of GSL's rk4 (step doubling: 12 evaluations a step) of size h. */
cbaseline_state cbaseline_gsl_rk4(cbaseline_state s, double k, double c, double h, long n);

/* GSL's explicit step types, for cbaseline_gsl_fixed. */
enum { CBASELINE_GSL_RK2, CBASELINE_GSL_RK4, CBASELINE_GSL_RKF45, CBASELINE_GSL_RKCK, CBASELINE_GSL_RK8PD };

/* n fixed steps of size h of one of GSL's explicit step types, through its driver. */
cbaseline_state cbaseline_gsl_fixed(int method, cbaseline_state s, double k, double c, double h, long n);

/* A whole run as `kinema work-precision` times it, with a C right-hand side: from x = 0, v = 0 to
   `duration`, GSL's adaptive rk8pd driver (absolute = relative tolerance) stopping at every sample
   i/rate, the positions written to `positions` (count = samples). Returns the driver's status. */
int cbaseline_gsl_rk8pd_samples(double k, double c, double tolerance, double duration, double rate,
                                double *positions, long samples);

/* The rows of a `kinema sweep --metrics settling_time,overshoot,final_error` over unit-mass
   springs from 0 to 1 (stiffness k[i], damping c[i]), with the arithmetic Kinema's sweep does: eight
   springs a step on the lanes of one RK4 (plain arrays of 8, which the compiler vectorizes), steps
   of h ending on every sample i/rate, and at each sample the three metrics' updates. The metrics go
   to out[3i], out[3i + 1], out[3i + 2]; no text. */
void cbaseline_sweep_rows(const double *k, const double *c, long rows, double h, double duration, double rate,
                          double *out);

#endif
