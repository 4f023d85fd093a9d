package com.statefulcvm.web;

import com.statefulcvm.workloads.WorkloadScripts;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the part of a Patroni compose that holds Patroni back after a lights-out, one small HTTP server per
 * node (reached through the node's CVM port 9000): {@code GET /sequence} answers the node's WAL position read from its
 * data directory with {@code pg_controldata} (the further of the latest checkpoint and the minimum recovery point, as
 * bytes), while Patroni does not run; {@code POST /release} answers 202 and starts the node's Patroni
 * ({@code patroni-cluster.sh node-start}) in the background, once. What the orchestrator sees is what it would see of a real compose doing this.
 */
final class HeldBackCompose implements AutoCloseable {

    private static final Pattern LSN = Pattern.compile("(Latest checkpoint location|Minimum recovery ending location):\\s+([0-9A-F]+)/([0-9A-F]+)");

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> released = new CopyOnWriteArrayList<>();

    /** Serves one node's endpoint on a free loopback port; returns the port. */
    int serve(Path clusterDir, String node) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/sequence", exchange -> answer(exchange, 200, Long.toString(walPosition(clusterDir, node))));
            server.createContext("/release", exchange -> {
                // accepted at once, as a compose's entrypoint would: Patroni starts in the background (node-start is a
                // no-op for a node that runs, so a release asked again starts nothing twice)
                synchronized (released) {
                    if (!released.contains(node)) {
                        released.add(node);
                        Thread starter = new Thread(() -> WorkloadScripts.run(90, "patroni-cluster.sh", "node-start",
                                clusterDir.toString(), node), "release-" + node);
                        starter.setDaemon(true);
                        starter.start();
                    }
                }
                answer(exchange, 202, "");
            });
            server.start();
            servers.add(server);
            return server.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The nodes released so far, in order. */
    List<String> released() {
        return List.copyOf(released);
    }

    static long walPosition(Path clusterDir, String node) throws IOException {
        Path binary = Path.of("/usr/lib/postgresql/15/bin/pg_controldata");
        Process process = new ProcessBuilder(binary.toString(), "-D", clusterDir.resolve(node).resolve("data").toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        long best = -1;
        Matcher m = LSN.matcher(output);
        while (m.find()) {
            best = Math.max(best, (Long.parseLong(m.group(2), 16) << 32) + Long.parseLong(m.group(3), 16));
        }
        if (best < 0) {
            throw new IOException("no WAL position in pg_controldata's output: " + output);
        }
        return best;
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        servers.forEach(s -> s.stop(0));
    }
}
