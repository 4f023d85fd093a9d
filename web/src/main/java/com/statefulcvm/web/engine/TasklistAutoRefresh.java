package com.statefulcvm.web.engine;

import org.camunda.bpm.engine.FilterService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.filter.Filter;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;

/**
 * Tasklist refreshes a filter's task list every 10 seconds only when the filter says so ({@code refresh} in its
 * properties, "Auto Refresh" in Tasklist's filter dialog). The approvals our procedures ask for appear a few steps
 * after a start, so the filter the application creates ("All tasks") refreshes by itself: an approval shows up without
 * a reload. Filters an administrator made are left alone.
 */
@Component
class TasklistAutoRefresh {

    static final String ALL_TASKS = "All tasks";

    private final FilterService filters;

    TasklistAutoRefresh(ProcessEngine engine) {
        this.filters = engine.getFilterService();
    }

    @EventListener(ApplicationReadyEvent.class)
    void refreshAllTasks() {
        for (Filter filter : filters.createFilterQuery().filterName(ALL_TASKS).list()) {
            Map<String, Object> properties = filter.getProperties() == null ? new HashMap<>() : new HashMap<>(filter.getProperties());
            if (!Boolean.TRUE.equals(properties.get("refresh"))) {
                properties.put("refresh", true);
                filter.setProperties(properties);
                filters.saveFilter(filter);
            }
        }
    }
}
