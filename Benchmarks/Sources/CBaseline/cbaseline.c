#include "cbaseline.h"
#include <math.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

static inline void derivative(double k, double c, double x, double v, double *dx, double *dv) {
    *dx = v;
    *dv = -k * (x - 1) - c * v;
}

cbaseline_state cbaseline_rk4(cbaseline_state s, double k, double c, double h, long n) {
    for (long i = 0; i < n; i++) {
        double k1x, k1v, k2x, k2v, k3x, k3v, k4x, k4v;
        derivative(k, c, s.x, s.v, &k1x, &k1v);
        derivative(k, c, s.x + 0.5 * h * k1x, s.v + 0.5 * h * k1v, &k2x, &k2v);
        derivative(k, c, s.x + 0.5 * h * k2x, s.v + 0.5 * h * k2v, &k3x, &k3v);
        derivative(k, c, s.x + h * k3x, s.v + h * k3v, &k4x, &k4v);
        s.x += h / 6 * (k1x + 2 * (k2x + k3x) + k4x);
        s.v += h / 6 * (k1v + 2 * (k2v + k3v) + k4v);
    }
    return s;
}

typedef struct { double k, c; } parameters;

static int gsl_function(double t, const double y[], double f[], void *p) {
    (void)t;
    const parameters *q = p;
    f[0] = y[1];
    f[1] = -q->k * (y[0] - 1) - q->c * y[1];
    return GSL_SUCCESS;
}

cbaseline_state cbaseline_gsl_fixed(int method, cbaseline_state s, double k, double c, double h, long n) {
    const gsl_odeiv2_step_type *types[] = {gsl_odeiv2_step_rk2, gsl_odeiv2_step_rk4, gsl_odeiv2_step_rkf45,
                                           gsl_odeiv2_step_rkck, gsl_odeiv2_step_rk8pd};
    parameters p = {k, c};
    gsl_odeiv2_system system = {gsl_function, NULL, 2, &p};
    /* eps_abs = 1e30: GSL's fixed-step path still runs the error test. */
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&system, types[method], h, 1e30, 0);
    double y[2] = {s.x, s.v}, t = 0;
    for (long i = 0; i < n; i++) gsl_odeiv2_evolve_apply_fixed_step(d->e, d->c, d->s, d->sys, &t, h, y);
    gsl_odeiv2_driver_free(d);
    cbaseline_state out = {y[0], y[1]};
    return out;
}

cbaseline_state cbaseline_gsl_rk4(cbaseline_state s, double k, double c, double h, long n) {
    return cbaseline_gsl_fixed(CBASELINE_GSL_RK4, s, k, c, h, n);
}

int cbaseline_gsl_rk8pd_samples(double k, double c, double tolerance, double duration, double rate,
                                double *positions, long samples) {
    parameters p = {k, c};
    gsl_odeiv2_system system = {gsl_function, NULL, 2, &p};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&system, gsl_odeiv2_step_rk8pd, 1e-6, tolerance, tolerance);
    double y[2] = {0, 0}, t = 0;
    int status = GSL_SUCCESS;
    positions[0] = 0;
    for (long i = 1; i < samples && status == GSL_SUCCESS; i++) {
        double next = i == samples - 1 ? duration : (double)i / rate;
        status = gsl_odeiv2_driver_apply(d, &t, next, y);
        positions[i] = y[0];
    }
    gsl_odeiv2_driver_free(d);
    return status;
}

void cbaseline_sweep_rows(const double *k, const double *c, long rows, double h, double duration, double rate,
                          double *out) {
    long samples = (long)ceil(duration * rate * (1 - 1e-12));
    for (long first = 0; first < rows; first += 8) {
        double nk[8] = {0}, damping[8] = {0}, x[8] = {0}, v[8] = {0}, settling[8] = {0}, overshoot[8] = {0};
        for (int l = 0; l < 8 && first + l < rows; l++) {
            nk[l] = -k[first + l];
            damping[l] = c[first + l];
        }
        double t = 0;
        for (long i = 0; i <= samples; i++) {
            double limit = i == samples ? duration : (double)i / rate;
            while (t < limit) {
                double remaining = limit - t, step = remaining <= h * (1 + 1e-9) ? remaining : h, half = 0.5 * step;
                for (int l = 0; l < 8; l++) {
                    double k1x = v[l], k1v = nk[l] * (x[l] - 1) - damping[l] * v[l];
                    double k2x = v[l] + half * k1v, k2v = nk[l] * (x[l] + half * k1x - 1) - damping[l] * k2x;
                    double k3x = v[l] + half * k2v, k3v = nk[l] * (x[l] + half * k2x - 1) - damping[l] * k3x;
                    double k4x = v[l] + step * k3v, k4v = nk[l] * (x[l] + step * k3x - 1) - damping[l] * k4x;
                    x[l] += step / 6 * (k1x + 2 * (k2x + k3x) + k4x);
                    v[l] += step / 6 * (k1v + 2 * (k2v + k3v) + k4v);
                }
                t = step == remaining ? limit : t + step;
            }
            double next = i + 1 < samples ? (double)(i + 1) / rate : duration;
            for (int l = 0; l < 8; l++) {
                if (fabs(x[l] - 1) > 0.001) settling[l] = next;
                double over = x[l] - 1;
                if (over > overshoot[l]) overshoot[l] = over;
            }
        }
        for (int l = 0; l < 8 && first + l < rows; l++) {
            out[3 * (first + l)] = settling[l];
            out[3 * (first + l) + 1] = overshoot[l];
            out[3 * (first + l) + 2] = fabs(x[l] - 1);
        }
    }
}
