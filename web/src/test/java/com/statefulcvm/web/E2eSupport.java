package com.statefulcvm.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

final class E2eSupport {

    private E2eSupport() {
    }

    /** The client and the probe URLs embed the port, so the test fixes a free one before the context starts. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
