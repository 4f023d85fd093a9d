package com.statefulcvm.simulator.web;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.version.ApiViews;

/** {@code GET /auth/me}: who the API key belongs to (what {@code phala whoami} and {@code phala status} show). */
@RestController
@RequestMapping(ApiPaths.API)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class AccountController {

    private final SimulatedCloud cloud;

    public AccountController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @GetMapping("/auth/me")
    Object me(ApiViews views) {
        return views.currentUser(cloud.account());
    }
}
