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

#endif
