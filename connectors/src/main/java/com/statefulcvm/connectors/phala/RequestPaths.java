package com.statefulcvm.connectors.phala;

import java.net.URI;

/** The path of a request relative to the base URL, so exception messages read like the API doc. */
final class RequestPaths {

    private RequestPaths() {
    }

    static String relative(String baseUrl, String url) {
        if (url == null) {
            return "?";
        }
        String path = url.startsWith(baseUrl) ? url.substring(baseUrl.length()) : rawPath(url);
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        return path.isEmpty() ? "/" : path;
    }

    private static String rawPath(String url) {
        try {
            String path = URI.create(url).getRawPath();
            return path == null ? "" : path;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
