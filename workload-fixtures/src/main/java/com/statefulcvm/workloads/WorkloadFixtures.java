package com.statefulcvm.workloads;


import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Starts the real clusters for the end-to-end tests. The scripts pick free ports at random and bind them a moment
 * later; on a busy test machine another process can take one in between ("address already in use"). Such a start
 * is tried again (the scripts clean up what a failed start left); any other failure is reported at once, after the
 * members that did start are stopped (no fixture object exists to close them).
 */
public final class WorkloadFixtures {

    private static final int ATTEMPTS = 3;

    private WorkloadFixtures() {
    }

    public static EtcdClusterFixture etcd(Path dir, int members, String prefix) {
        return withPortRetry(() -> EtcdClusterFixture.start(dir, members, prefix), EtcdClusterFixture.SCRIPT, dir);
    }

    public static PatroniClusterFixture patroni(Path dir, int nodes, String prefix) {
        return withPortRetry(() -> PatroniClusterFixture.start(dir, nodes, prefix), PatroniClusterFixture.SCRIPT, dir);
    }

    public static GaleraClusterFixture galera(Path dir, int members, String prefix) {
        return withPortRetry(() -> GaleraClusterFixture.start(dir, members, prefix), GaleraClusterFixture.SCRIPT, dir);
    }

    private static <T> T withPortRetry(Supplier<T> start, String script, Path dir) {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.get();
            } catch (IllegalStateException e) {
                String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
                if (attempt >= ATTEMPTS || !message.contains("address already in use")) {
                    WorkloadScripts.run(120, script, "stop", dir.toString());
                    throw e;
                }
                System.out.println("a cluster start lost a port race, starting again (attempt " + (attempt + 1) + "): "
                        + e.getMessage().lines().filter(l -> l.toLowerCase(Locale.ROOT).contains("address already in use"))
                        .findFirst().orElse(""));
            }
        }
    }
}
