package com.statefulcvm.simulator.web;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import com.statefulcvm.simulator.version.ApiVersion;
import com.statefulcvm.simulator.version.ApiViews;

/**
 * Gives a controller method's {@link ApiViews} parameter the views of the version {@link ApiVersionFilter} resolved
 * for the request (the oldest when the filter did not run).
 */
public class ApiViewsArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return ApiViews.class.equals(parameter.getParameterType());
    }

    @Override
    public ApiViews resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
        Object version = webRequest.getAttribute(ApiVersionFilter.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        return (version instanceof ApiVersion resolved ? resolved : ApiVersion.OLDEST).views();
    }
}
