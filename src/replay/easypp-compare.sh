#!/bin/bash
echo todo
