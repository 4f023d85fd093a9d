package com.statefulcvm.fleet;

/** How the orchestrator decides that an instance serves: an HTTP probe through the instance's gateway URL. */
public class HealthCheck {

    private Http http = new Http();
    private int intervalSeconds = 10;
    private int timeoutSeconds = 5;
    private int healthyThreshold = 2;
    private int unhealthyThreshold = 3;

    public Http getHttp() { return http; }
    public void setHttp(Http http) { this.http = http; }
    public int getIntervalSeconds() { return intervalSeconds; }
    public void setIntervalSeconds(int intervalSeconds) { this.intervalSeconds = intervalSeconds; }
    public int getTimeoutSeconds() { return timeoutSeconds; }
    public void setTimeoutSeconds(int timeoutSeconds) { this.timeoutSeconds = timeoutSeconds; }
    public int getHealthyThreshold() { return healthyThreshold; }
    public void setHealthyThreshold(int healthyThreshold) { this.healthyThreshold = healthyThreshold; }
    public int getUnhealthyThreshold() { return unhealthyThreshold; }
    public void setUnhealthyThreshold(int unhealthyThreshold) { this.unhealthyThreshold = unhealthyThreshold; }

    public static class Http {
        private int port = 80;
        private String path = "/health";
        private int expectStatus = 200;

        public int getPort() { return port; }
        public void setPort(int port) { this.port = port; }
        public String getPath() { return path; }
        public void setPath(String path) { this.path = path; }
        public int getExpectStatus() { return expectStatus; }
        public void setExpectStatus(int expectStatus) { this.expectStatus = expectStatus; }
    }
}
