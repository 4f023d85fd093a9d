package com.statefulcvm.connectors.guestagent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Asks one CVM's dstack guest agent for a quote over the instance's gateway URL, with the caller's report_data, so
 * the evidence is fresh. The workload exposes the agent's {@code GetQuote} on a port of its own choosing (the
 * agent itself listens on a socket inside the CVM); the answer is the dstack GetQuote JSON
 * ({@code quote, event_log, report_data, vm_config}).
 */
public final class GuestAgentClient {

    private final HttpClient http;
    private final Duration timeout;

    public GuestAgentClient(Duration timeout) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    /**
     * @param agentUrl      the instance's guest-agent base URL (gateway form, exactly this instance)
     * @param reportDataHex 64 bytes in hex
     * @return the GetQuote JSON as the agent sent it
     * @throws GuestAgentException when the agent cannot be reached or does not answer 200
     */
    public String getQuote(URI agentUrl, String reportDataHex) {
        HexFormat.of().parseHex(reportDataHex);
        URI url = URI.create(agentUrl.toString().replaceAll("/+$", "") + "/GetQuote?report_data=" + reportDataHex);
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new GuestAgentException("guest agent at " + agentUrl + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new GuestAgentException("guest agent at " + agentUrl + " could not be reached: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GuestAgentException("interrupted while asking the guest agent at " + agentUrl, e);
        }
    }
}
