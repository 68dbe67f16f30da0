#include "odeint_baseline.h"

#include <array>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <vector>

namespace {

using state_type = std::vector<double>;
namespace ode = boost::numeric::odeint;

struct Chain {
    int n;
    double mass = 0.2, k = 80, c = 0.3, rest = 0.25, g = -9.81;

    state_type start() const {
        state_type y(6 * n, 0.0);
        for (int i = 0; i < n; ++i) {
            y[3 * i] = 0.3 * (i + 1);
            y[3 * i + 2] = 0.05 * i;
        }
        return y;
    }

    void operator()(const state_type &y, state_type &dydt, double) const {
        const double *x = y.data(), *v = y.data() + 3 * n;
        double *dx = dydt.data(), *a = dydt.data() + 3 * n;
        const double w = 1 / mass;
        for (int i = 0; i < 3 * n; ++i) dx[i] = v[i];
        for (int i = 0; i < n; ++i) {
            a[3 * i] = 0;
            a[3 * i + 1] = 0;
            a[3 * i + 2] = g;
        }
        for (int s = 0; s < n; ++s) {
            const int first = s == 0 ? 0 : s - 1, second = s == 0 ? -1 : s;
            // Spring s joins body s-1 to body s (spring 0: body 0 to the origin).
            const int p = first, q = second;
            double d[3], dv[3];
            for (int axis = 0; axis < 3; ++axis) {
                d[axis] = x[3 * p + axis] - (q < 0 ? 0.0 : x[3 * q + axis]);
                dv[axis] = v[3 * p + axis] - (q < 0 ? 0.0 : v[3 * q + axis]);
            }
            const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (length == 0) continue;
            const double along = (dv[0] * d[0] + dv[1] * d[1] + dv[2] * d[2]) / length;
            const double magnitude = -(k * (length - rest) + c * along) / length;
            for (int axis = 0; axis < 3; ++axis) {
                a[3 * p + axis] += w * magnitude * d[axis];
                if (q >= 0) a[3 * q + axis] -= w * magnitude * d[axis];
            }
        }
    }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void copy_positions(const state_type &y, int n, double *positions) {
    for (int i = 0; i < 3 * n; ++i) positions[i] = y[i];
}

template <class Stepper>
double adaptive(int n, double tolerance, double duration, long *accepted, double *positions) {
    Chain chain{n};
    state_type y = chain.start();
    auto stepper = ode::make_controlled(tolerance, tolerance, Stepper());
    auto start = std::chrono::steady_clock::now();
    *accepted = static_cast<long>(ode::integrate_adaptive(stepper, chain, y, 0.0, duration, 1e-3));
    double elapsed = seconds_since(start);
    copy_positions(y, n, positions);
    return elapsed;
}

}  // namespace

extern "C" double odeint_chain_rk4(int bodies, double h, long steps, double *positions) {
    Chain chain{bodies};
    state_type y = chain.start();
    ode::runge_kutta4<state_type> stepper;
    auto start = std::chrono::steady_clock::now();
    double t = 0;
    for (long i = 0; i < steps; ++i, t += h) stepper.do_step(chain, y, t, h);
    double elapsed = seconds_since(start);
    copy_positions(y, bodies, positions);
    return elapsed;
}

extern "C" double odeint_chain_fehlberg78(int bodies, double tolerance, double duration, long *accepted, double *positions) {
    return adaptive<ode::runge_kutta_fehlberg78<state_type>>(bodies, tolerance, duration, accepted, positions);
}

extern "C" double odeint_chain_dopri5(int bodies, double tolerance, double duration, long *accepted, double *positions) {
    return adaptive<ode::runge_kutta_dopri5<state_type>>(bodies, tolerance, duration, accepted, positions);
}

namespace {

/// The work-precision spring: x'' = -k (x - 1) - c x', from rest at 0, on a fixed-size state
/// (odeint's fastest state type for two coordinates).
using spring_state = std::array<double, 2>;

struct Spring {
    double k, c;
    void operator()(const spring_state &y, spring_state &dydt, double) const {
        dydt[0] = y[1];
        dydt[1] = -k * (y[0] - 1) - c * y[1];
    }
};

/// The sample times: i / rate, the last one `duration`.
std::vector<double> sample_times(double duration, double rate, long count) {
    std::vector<double> times(count);
    for (long i = 0; i < count; ++i) times[i] = i == count - 1 ? duration : i / rate;
    return times;
}

template <class Stepper>
long run_times(Stepper stepper, const Spring &spring, const std::vector<double> &times, double dt, double *positions) {
    spring_state y = {0, 0};
    long i = 0;
    return static_cast<long>(ode::integrate_times(stepper, spring, y, times.begin(), times.end(), dt,
                                                  [&](const spring_state &x, double) { positions[i++] = x[0]; }));
}

}  // namespace

extern "C" double odeint_spring_samples(int method, double setting, double k, double c, double duration, double rate,
                                        long count, int repeats, double *positions, long *steps) {
    const Spring spring{k, c};
    const std::vector<double> times = sample_times(duration, rate, count);
    const double interval = 1 / rate;
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        auto start = std::chrono::steady_clock::now();
        switch (method) {
        case 0: *steps = run_times(ode::runge_kutta4<spring_state>(), spring, times, interval / setting, positions); break;
        case 1: *steps = run_times(ode::make_dense_output(setting, setting, ode::runge_kutta_dopri5<spring_state>()),
                                   spring, times, interval, positions); break;
        case 2: *steps = run_times(ode::make_controlled(setting, setting, ode::runge_kutta_fehlberg78<spring_state>()),
                                   spring, times, interval, positions); break;
        case 3: *steps = run_times(ode::make_controlled(setting, setting, ode::runge_kutta_cash_karp54<spring_state>()),
                                   spring, times, interval, positions); break;
        case 4: *steps = run_times(ode::bulirsch_stoer<spring_state>(setting, setting), spring, times, interval, positions); break;
        case 5: *steps = run_times(ode::bulirsch_stoer_dense_out<spring_state>(setting, setting), spring, times, interval, positions); break;
        case 6: *steps = run_times(ode::adams_bashforth_moulton<8, spring_state>(), spring, times, interval / setting, positions); break;
        default: return -1;
        }
        best = std::min(best, seconds_since(start));
    }
    return best;
}
