package com.statefulcvm.connectors.phala.model;

import java.util.List;

public record CvmNetwork(
        Boolean isOnline,
        Boolean isPublic,
        String error,
        String internalIp,
        String latestHandshake,
        List<UrlPair> publicUrls) {
}
