package com.statefulcvm.simulator.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every call to the simulated API as it arrived: method, path, query, the headers that are part of the API's contract
 * (never the key's value), the body as text, and the status answered. The last few thousand stay in memory for the
 * admin API; with {@code simulator.request-journal} set, each is also appended to that file as one JSON line, which
 * the SDK contract test ({@code sdk-conformance/contract.mjs}) checks against the official SDK.
 */
public final class RequestJournal {

    private static final int KEPT = 5_000;
    /** Several simulators in one JVM (test contexts) may append to one file: one line at a time. */
    private static final Object FILE_LOCK = new Object();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Deque<Entry> recent = new ArrayDeque<>();
    private long lastSeq;

    /** @param file where to append every entry as a JSON line; null for memory only */
    public RequestJournal(Path file) {
        this.file = file;
        if (file != null && file.getParent() != null) {
            try {
                Files.createDirectories(file.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the directory of the request journal " + file, e);
            }
        }
    }

    /** One call. {@code apiKey}: whether it carried a non-empty {@code X-API-Key}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(long seq, String method, String path, String query, String contentType, String phalaVersion,
            String composeHashHeader, String transactionHashHeader, String prepareOnlyHeader, boolean apiKey,
            String userAgent, String body, int status) {
    }

    synchronized void record(Entry withoutSeq) {
        Entry entry = new Entry(++lastSeq, withoutSeq.method(), withoutSeq.path(), withoutSeq.query(),
                withoutSeq.contentType(), withoutSeq.phalaVersion(), withoutSeq.composeHashHeader(),
                withoutSeq.transactionHashHeader(), withoutSeq.prepareOnlyHeader(), withoutSeq.apiKey(),
                withoutSeq.userAgent(), withoutSeq.body(), withoutSeq.status());
        recent.addLast(entry);
        while (recent.size() > KEPT) {
            recent.removeFirst();
        }
        if (file != null) {
            synchronized (FILE_LOCK) {
                append(entry);
            }
        }
    }

    private void append(Entry entry) {
        try {
            Files.writeString(file, JSON.writeValueAsString(entry) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the request journal " + file, e);
        }
    }

    public synchronized List<Entry> since(long seq) {
        List<Entry> answer = new ArrayList<>();
        for (Entry entry : recent) {
            if (entry.seq() > seq) {
                answer.add(entry);
            }
        }
        return answer;
    }
}
