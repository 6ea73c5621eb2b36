"""OpenAPI documents as a source: conversion to tools, schema handling, and the HTTP calls."""
