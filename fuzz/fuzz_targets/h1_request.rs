    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
'    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
'    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
`    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
#    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
[    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
]    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
G    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
A    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
S    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
D    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
G    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
4    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
9    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
6    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
[    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
8    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
]    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
/    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
A    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
z    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
U    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
\    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
\    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
\    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
\    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
?    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
[    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
]    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
?    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
2    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
4    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
[    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
]    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
M    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
-    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
G    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
A    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
S    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
R    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
D    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
G    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
L    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
[    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
]    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
6    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
4    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
S    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
<    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
6    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
4    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
>    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
w    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
x    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
F    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
E    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
C    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
I    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
O    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
N    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
u    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
*    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
'    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
'    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
y    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
m    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
g    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
b    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
"    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
|    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
0    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
&    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
f    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
=    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
V    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
n    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
:    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
H    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
T    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
P    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
1    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
{    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
r    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
t    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
q    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
(    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
h    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
d    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
.    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
k    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
p    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
_    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
a    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
i    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
v    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
,    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
!    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
c    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
l    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
o    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
s    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
e    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
     match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
}    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
)    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
;    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }

    match head.parts.version {
        Version::HTTP_11 => assert_eq!(head.keep_alive, !close),
        _ => assert!(!head.keep_alive || !close),
    }
