# Source: https://github.com/satyam-seth-learnings/devops-learning, path 81.deploy-django-js-project-with-nginx-web-server-via-github-and-automate-deployment/django-project.com, commit c5a3b3e59884855a48261f63c93f626096232ef1
# Public test data for weir import (issue 20), unchanged below these two lines.
server {
    listen 80;
    listen [::]:80;

    server_name django-project.com www.django-project.com;

    location = /favicon.ico { access_log off; log_not_found off; }

    location / {
        proxy_set_header Host $http_host;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_pass http://unix:/run/django-project.com.gunicorn.sock;
    }

    location  /static/ {
        root /var/www/django-project;
    }

    location  /media/ {
        root /var/www/django-project;
    }
}
