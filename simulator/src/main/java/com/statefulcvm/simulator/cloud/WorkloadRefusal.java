package com.statefulcvm.simulator.cloud;

/**
 * A simulated workload refusing a call, with the status and the text the real one answers (Patroni's plain text,
 * etcd's {@code etcdserver: ...} message, Consul's plain text); each workload's controller puts the text in its own
 * error shape. Nothing has changed when it is thrown.
 */
public class WorkloadRefusal extends RuntimeException {

    private final int status;

    public WorkloadRefusal(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
