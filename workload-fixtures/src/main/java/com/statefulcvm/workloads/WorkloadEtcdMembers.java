package com.statefulcvm.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Asks a real etcd cluster's members directly (their own client ports, not through the simulator) who leads. */
public final class WorkloadEtcdMembers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private WorkloadEtcdMembers() {
    }

    /** {@code POST /v3/maintenance/status}, or null when the member does not answer. */
    static JsonNode status(EtcdClusterFixture.Member member) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(member.clientUrl() + "/v3/maintenance/status"))
                    .timeout(Duration.ofSeconds(1)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The member that answers as the leader (its own id is the leader it reports), or null. */
    public static String leader(EtcdClusterFixture etcd) {
        for (EtcdClusterFixture.Member member : etcd.members()) {
            JsonNode status = status(member);
            if (status != null && status.path("errors").isEmpty()
                    && status.path("leader").asText().equals(status.path("header").path("member_id").asText())) {
                return member.name();
            }
        }
        return null;
    }

    /** Every member answers its status without errors and knows a leader. */
    public static boolean allHealthy(EtcdClusterFixture etcd) {
        for (EtcdClusterFixture.Member member : etcd.members()) {
            JsonNode status = status(member);
            if (status == null || !status.path("errors").isEmpty() || status.path("leader").asText("0").equals("0")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The membership as the first answering member lists it, sorted: {@code name} for a voter, {@code name(learner)}
     * for a learner, {@code (not started)} for a member added but not started yet; null when no member answers.
     */
    public static String membership(EtcdClusterFixture etcd) {
        JsonNode members = memberList(etcd);
        if (members == null) {
            return null;
        }
        java.util.List<String> names = new java.util.ArrayList<>();
        for (JsonNode m : members) {
            String name = m.path("name").asText("");
            names.add(name.isEmpty() ? "(not started)" : name + (m.path("isLearner").asBoolean() ? "(learner)" : ""));
        }
        java.util.Collections.sort(names);
        return String.join(",", names);
    }

    /** Each started member's name and its member ID (etcd's, as the JSON gateway writes it); empty when none answers. */
    public static java.util.Map<String, String> memberIds(EtcdClusterFixture etcd) {
        java.util.Map<String, String> ids = new java.util.TreeMap<>();
        JsonNode members = memberList(etcd);
        if (members != null) {
            for (JsonNode m : members) {
                if (!m.path("name").asText("").isEmpty()) {
                    ids.put(m.path("name").asText(), m.path("ID").asText());
                }
            }
        }
        return ids;
    }

    /** {@code POST /v3/cluster/member/list} of the first member that answers: its members array, or null. */
    private static JsonNode memberList(EtcdClusterFixture etcd) {
        for (EtcdClusterFixture.Member member : etcd.members()) {
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(member.clientUrl() + "/v3/cluster/member/list"))
                        .timeout(Duration.ofSeconds(1)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return JSON.readTree(response.body()).path("members");
                }
            } catch (IOException e) {
                // next member
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }
}
