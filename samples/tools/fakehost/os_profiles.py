"""Operating-system profiles: the facts that differ between distributions
(os-release, kernel, systemd version and wording, gcc, cgroup layout)."""

PROFILES = {
    "alinux3": dict(
        os_release='''NAME="Alibaba Cloud Linux"
VERSION="3 (Soaring Falcon)"
ID="alinux"
ID_LIKE="rhel fedora centos anolis"
VERSION_ID="3"
UPDATE_ID="10"
PLATFORM_ID="platform:al8"
PRETTY_NAME="Alibaba Cloud Linux 3.2104 U10 (OpenAnolis Edition)"
ANSI_COLOR="0;31"
HOME_URL="https://www.aliyun.com/"
''',
        pretty="Alibaba Cloud Linux 3.2104 U10 (OpenAnolis Edition)",
        kernel="5.10.134-16.3.al8.x86_64",
        kernel_build="#1 SMP Thu Jan 11 10:48:34 CST 2024",
        compiler="gcc (GCC) 10.2.1 20200825 (Alibaba 10.2.1-3.8 2.32), GNU ld version 2.35-12.3.al8",
        gcc="gcc version 10.2.1 20200825 (Alibaba 10.2.1-3.8 2.32) (GCC) ",
        systemd=239, systemd_full="systemd 239 (239-78.0.4.al8)",
        systemd_features="+PAM +AUDIT +SELINUX +IMA -APPARMOR +SMACK +SYSVINIT +UTMP +LIBCRYPTSETUP +GCRYPT +GNUTLS +ACL +XZ +LZ4 +SECCOMP +BLKID +ELFUTILS +KMOD +IDN2 -IDN +PCRE2 default-hierarchy=legacy",
        systemd_exe="/usr/lib/systemd/systemd",
        cgroup="v1", hybrid=False, root_dev="/dev/nvme0n1p1", fs="ext4",
        cmdline="BOOT_IMAGE=(hd0,gpt2)/boot/vmlinuz-{kernel} root=UUID=7d3ea6d8-3b9c-4c0e-9a56-3f3f0d6f1f0a ro net.ifnames=0 console=tty0 console=ttyS0,115200n8 crashkernel=0M-2G:0M,2G-64G:256M,64G-:512M cgroup.memory=nokmem fsck.repair=yes rd.driver.blacklist=nouveau nouveau.modeset=0\n",
        hostname_style="ack"),
    "ubuntu2004": dict(
        os_release='''NAME="Ubuntu"
VERSION="20.04.6 LTS (Focal Fossa)"
ID=ubuntu
ID_LIKE=debian
PRETTY_NAME="Ubuntu 20.04.6 LTS"
VERSION_ID="20.04"
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
VERSION_CODENAME=focal
UBUNTU_CODENAME=focal
''',
        pretty="Ubuntu 20.04.6 LTS",
        kernel="5.4.0-200-generic",
        kernel_build="#220-Ubuntu SMP Fri Sep 27 13:19:16 UTC 2024",
        compiler="gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.2)",
        gcc="gcc version 9.4.0 (Ubuntu 9.4.0-1ubuntu1~20.04.2) ",
        systemd=245, systemd_full="systemd 245 (245.4-4ubuntu3.24)",
        systemd_features="+PAM +AUDIT +SELINUX +IMA +APPARMOR +SMACK +SYSVINIT +UTMP +LIBCRYPTSETUP +GCRYPT +GNUTLS +ACL +XZ +LZ4 +SECCOMP +BLKID +ELFUTILS +KMOD +IDN2 -IDN +PCRE2 default-hierarchy=hybrid",
        systemd_exe="/lib/systemd/systemd",
        cgroup="v1", hybrid=True, root_dev="/dev/sda2", fs="ext4",
        cmdline="BOOT_IMAGE=/boot/vmlinuz-{kernel} root=UUID=3f1e9a52-6a0d-4f6e-9d1c-2b7c2e5d8a41 ro quiet splash vt.handoff=7\n",
        hostname_style="dns"),
    "ubuntu2204": dict(
        os_release='''PRETTY_NAME="Ubuntu 22.04.5 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.5 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
UBUNTU_CODENAME=jammy
''',
        pretty="Ubuntu 22.04.5 LTS",
        kernel="5.15.0-124-generic",
        kernel_build="#134-Ubuntu SMP Fri Sep 27 20:20:17 UTC 2024",
        compiler="x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0, GNU ld (GNU Binutils for Ubuntu) 2.38",
        gcc="gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) ",
        systemd=249, systemd_full="systemd 249 (249.11-0ubuntu3.12)",
        systemd_features="+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified",
        systemd_exe="/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/sda2", fs="ext4",
        cmdline="BOOT_IMAGE=/boot/vmlinuz-{kernel} root=UUID=a6c5f3d2-1b8e-4f7a-9c2d-5e4b3a2f1d0c ro console=tty1 console=ttyS0 nvme_core.io_timeout=4294967295\n",
        hostname_style="dns"),
    "ubuntu2404": dict(
        os_release='''PRETTY_NAME="Ubuntu 24.04.1 LTS"
NAME="Ubuntu"
VERSION_ID="24.04"
VERSION="24.04.1 LTS (Noble Numbat)"
VERSION_CODENAME=noble
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
UBUNTU_CODENAME=noble
LOGO=ubuntu-logo
''',
        pretty="Ubuntu 24.04.1 LTS",
        kernel="6.8.0-48-generic",
        kernel_build="#48-Ubuntu SMP PREEMPT_DYNAMIC Fri Sep 27 14:04:52 UTC 2024",
        compiler="x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42",
        gcc="gcc version 13.2.0 (Ubuntu 13.2.0-23ubuntu4) ",
        systemd=255, systemd_full="systemd 255 (255.4-1ubuntu8.4)",
        systemd_features="+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT +QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified",
        systemd_exe="/usr/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/nvme0n1p2", fs="ext4",
        cmdline="BOOT_IMAGE=/vmlinuz-{kernel} root=UUID=0c2b7e61-9a3f-4d55-8e1a-6f2d4c9b3e17 ro console=tty1 console=ttyS0\n",
        hostname_style="dns"),
    # Platform profiles (docs/platforms.md). Kernel builds and package
    # revisions are plausible for the release, not copied from one machine.
    "al2023": dict(
        os_release='''NAME="Amazon Linux"
VERSION="2023"
ID="amzn"
ID_LIKE="fedora"
VERSION_ID="2023"
PLATFORM_ID="platform:al2023"
PRETTY_NAME="Amazon Linux 2023.6.20241121"
ANSI_COLOR="0;33"
CPE_NAME="cpe:2.3:o:amazon:amazon_linux:2023"
HOME_URL="https://aws.amazon.com/linux/amazon-linux-2023/"
SUPPORT_END="2028-03-15"
''',
        pretty="Amazon Linux 2023.6.20241121",
        kernel="6.1.115-126.197.amzn2023.x86_64",
        kernel_build="#1 SMP PREEMPT_DYNAMIC Tue Nov  5 17:36:57 UTC 2024",
        compiler="gcc (GCC) 11.4.1 20230605 (Red Hat 11.4.1-2), GNU ld version 2.39-6.amzn2023.0.10",
        gcc="gcc version 11.4.1 20230605 (Red Hat 11.4.1-2) (GCC) ",
        systemd=252, systemd_full="systemd 252 (252.23-2.amzn2023)",
        systemd_features="+PAM +AUDIT +SELINUX -APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS -FIDO2 +IDN2 -IDN -IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE -TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK +XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified",
        systemd_exe="/usr/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/nvme0n1p1", fs="xfs",
        cmdline="BOOT_IMAGE=(hd0,gpt1)/boot/vmlinuz-{kernel} root=UUID=5f2e8e4a-1c2b-4f6d-9a0e-7b3c2d1e0f9a ro console=tty0 console=ttyS0,115200n8 nvme_core.io_timeout=4294967295 rd.emergency=poweroff rd.shell=0 selinux=1 security=selinux quiet\n",
        hostname_style="dns"),
    "bottlerocket": dict(
        os_release='''NAME=Bottlerocket
ID=bottlerocket
VERSION="1.26.2 (aws-k8s-1.31-nvidia)"
PRETTY_NAME="Bottlerocket OS 1.26.2 (aws-k8s-1.31-nvidia)"
VARIANT_ID=aws-k8s-1.31-nvidia
VERSION_ID=1.26.2
BUILD_ID=5c5a5d0e
HOME_URL="https://github.com/bottlerocket-os/bottlerocket"
SUPPORT_URL="https://github.com/bottlerocket-os/bottlerocket/discussions"
BUG_REPORT_URL="https://github.com/bottlerocket-os/bottlerocket/issues"
DOCUMENTATION_URL="https://bottlerocket.dev"
''',
        pretty="Bottlerocket OS 1.26.2 (aws-k8s-1.31-nvidia)",
        kernel="6.1.112",
        kernel_build="#1 SMP PREEMPT_DYNAMIC Thu Oct 17 19:18:22 UTC 2024",
        compiler="x86_64-bottlerocket-linux-gnu-gcc (Buildroot 2024.02.6) 11.3.0, GNU ld (GNU Binutils) 2.40",
        gcc="gcc version 11.3.0 (Buildroot 2024.02.6) ",
        systemd=252, systemd_full="systemd 252 (252.22)",
        systemd_features="-PAM -AUDIT +SELINUX -APPARMOR -IMA -SMACK +SECCOMP -GCRYPT -GNUTLS -OPENSSL +ACL +BLKID -CURL -ELFUTILS -FIDO2 -IDN2 -IDN -IPTC +KMOD -LIBCRYPTSETUP -LIBFDISK -PCRE2 -PWQUALITY -P11KIT -QRENCODE -TPM2 -BZIP2 -LZ4 -XZ -ZLIB -ZSTD -BPF_FRAMEWORK -XKBCOMMON -UTMP -SYSVINIT default-hierarchy=unified",
        systemd_exe="/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/dm-0", fs="ext4",
        cmdline="BOOT_IMAGE=(hd0,gpt3)/vmlinuz console=tty0 console=ttyS0,115200n8 net.ifnames=0 netdog.default-interface=eth0:dhcp4,dhcp6? quiet systemd.unified_cgroup_hierarchy=1 dm-mod.create=root,,,ro,0 4022272 verity 1 PARTUUID=$boot_uuid/PARTNROFF=1 PARTUUID=$boot_uuid/PARTNROFF=2 4096 4096 502784 1 sha256 0c1f... root=/dev/dm-0 rootwait ro raid=noautodetect random.trust_cpu=on selinux=1 enforcing=1\n",
        hostname_style="dns"),
    "cos": dict(
        os_release='''NAME="Container-Optimized OS"
ID=cos
PRETTY_NAME="Container-Optimized OS from Google"
HOME_URL="https://cloud.google.com/container-optimized-os/docs"
BUG_REPORT_URL="https://cloud.google.com/container-optimized-os/docs/resources/support-policy#contact_us"
GOOGLE_METRICS_PRODUCT_ID=26
KERNEL_COMMIT_ID=5d4b1a6f9f0e
GOOGLE_CRASH_ID=Lakitu
VERSION=113
VERSION_ID=113
BUILD_ID=18244.151.27
''',
        pretty="Container-Optimized OS from Google",
        kernel="6.1.100+",
        kernel_build="#1 SMP PREEMPT_DYNAMIC Sat Aug 10 14:21:56 UTC 2024",
        compiler="Chromium OS 17.0_pre496208_p20230501-r13 clang version 17.0.0, LLD 17.0.0",
        gcc="Chromium OS 17.0_pre496208_p20230501-r13 clang version 17.0.0 ",
        systemd=252, systemd_full="systemd 252 (252)",
        systemd_features="+PAM +AUDIT -SELINUX -APPARMOR -IMA -SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL -ELFUTILS -FIDO2 +IDN2 -IDN -IPTC +KMOD -LIBCRYPTSETUP -LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE -TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP -SYSVINIT default-hierarchy=unified",
        systemd_exe="/usr/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/dm-0", fs="ext4",
        cmdline="BOOT_IMAGE=/syslinux/vmlinuz.A init=/usr/lib/systemd/systemd boot=local rootwait ro noresume loglevel=7 console=tty1 console=ttyS0 security=apparmor virtio_net.napi_tx=1 systemd.unified_cgroup_hierarchy=true csm.disabled=1 dm_verity.error_behavior=3 dm_verity.max_bios=-1 dm_verity.dev_wait=1 i915.modeset=1 cros_efi root=/dev/dm-0\n",
        hostname_style="dns"),
    "rhcos": dict(
        os_release='''NAME="Red Hat Enterprise Linux CoreOS"
ID="rhcos"
ID_LIKE="rhel fedora"
VERSION="416.94.202411201433-0"
VERSION_ID="4.16"
VARIANT="CoreOS"
VARIANT_ID=coreos
PLATFORM_ID="platform:el9"
PRETTY_NAME="Red Hat Enterprise Linux CoreOS 416.94.202411201433-0"
ANSI_COLOR="0;31"
CPE_NAME="cpe:/o:redhat:enterprise_linux:9::baseos::coreos"
HOME_URL="https://www.redhat.com/"
RHEL_VERSION="9.4"
OPENSHIFT_VERSION="4.16"
OSTREE_VERSION="416.94.202411201433-0"
''',
        pretty="Red Hat Enterprise Linux CoreOS 416.94.202411201433-0",
        kernel="5.14.0-427.44.1.el9_4.x86_64",
        kernel_build="#1 SMP PREEMPT_DYNAMIC Fri Nov 8 06:59:24 EST 2024",
        compiler="gcc (GCC) 11.4.1 20231218 (Red Hat 11.4.1-3), GNU ld version 2.35.2-43.el9",
        gcc="gcc version 11.4.1 20231218 (Red Hat 11.4.1-3) (GCC) ",
        systemd=252, systemd_full="systemd 252 (252-32.el9_4.7)",
        systemd_features="+PAM +AUDIT +SELINUX -APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN -IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT -QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK +XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified",
        systemd_exe="/usr/lib/systemd/systemd",
        cgroup="v2", hybrid=False, root_dev="/dev/nvme0n1p4", fs="xfs",
        cmdline="BOOT_IMAGE=(hd0,gpt3)/ostree/rhcos-0f3c/vmlinuz-{kernel} ignition.platform.id=aws console=tty0 console=ttyS0,115200n8 root=UUID=9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d rw rootflags=prjquota boot=UUID=1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all psi=0 ostree=/ostree/boot.1/rhcos/0f3c/0\n",
        hostname_style="dns"),
}


# systemd PID-1 wording by version -------------------------------------------
def msg_starting(v, unit, desc):
    return ("Starting %s - %s..." % (unit, desc)) if v >= 250 else ("Starting %s..." % desc)


def msg_started(v, unit, desc):
    return ("Started %s - %s." % (unit, desc)) if v >= 250 else ("Started %s." % desc)


def msg_stopping(v, unit, desc):
    return ("Stopping %s - %s..." % (unit, desc)) if v >= 250 else ("Stopping %s..." % desc)


def msg_stopped(v, unit, desc):
    return ("Stopped %s - %s." % (unit, desc)) if v >= 250 else ("Stopped %s." % desc)


def msg_deactivated(v, unit):
    if v >= 248:
        return "%s: Deactivated successfully." % unit
    if v >= 240:
        return "%s: Succeeded." % unit
    return None


def msg_consumed(v, unit, cpu):
    return ("%s: Consumed %s CPU time." % (unit, cpu)) if v >= 246 else None


def msg_reload(v, caller_pid, comm, caller_unit, ms):
    """Lines PID 1 logs for one daemon-reload (systemd manager.c)."""
    if v >= 253:
        who = "Reloading requested from client PID %d" % caller_pid
        if comm:
            who += " ('%s')" % comm
        if caller_unit:
            who += " (unit %s)" % caller_unit
        return [who + "...", "Reloading...", "Reloading finished in %d ms." % ms]
    return ["Reloading."]
