# Source: https://github.com/duplyakin/gmc_outreacher, path init_scripts/prod/flower.outreacher24.com, commit 9da82895bff4db1532fface253c0797fcb85580c
# Public test data for weir import (issue 20), unchanged below these two lines.
server {
    listen 80;
    server_name flower.outreacher24.com;
    charset utf-8;

    location / {
        auth_basic "Restricted Content";
        auth_basic_user_file /etc/nginx/.htpasswd;
        
        proxy_pass http://localhost:6666;
        proxy_set_header Host $host;
        proxy_redirect off;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade";
    }
}