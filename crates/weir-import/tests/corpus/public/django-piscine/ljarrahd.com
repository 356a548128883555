# Source: https://github.com/darbulat/django_piscine, path day08/ex01/ljarrahd.com, commit 73b3f56e70f4b3e47ef670a29395a01fa4666fbc
# Public test data for weir import (issue 20), unchanged below these two lines.
server
{
	listen 80 default_server;
	listen [::]:80 default_server;

    location / {
        include proxy_params;
        proxy_pass http://unix:/project/django_gunicorn.sock;
        proxy_buffering off;
    }
}

