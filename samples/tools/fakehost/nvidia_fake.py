"""NVIDIA side of a fake host: GPU inventory, nvidia-smi outputs (-L, -q -x),
/proc/driver/nvidia, PCI sysfs and /dev nodes, all derived from one list of
GPUs so that UUIDs, serials, minors and bus ids agree everywhere.

The -q -x document follows the nvsmi_device_v12.dtd layout of R535 drivers
(element order as printed by nvidia-smi 535; see
research formats nvidia-smi-qx_v12_a100-mig-enabled_driver535_telegraf.xml).
"""
from .clock import hexid, uuid_from

# name, pci device id, subsystem id, arch, fb MiB, reserved MiB, bar1 MiB,
# power limit W, min W, max gfx MHz, mem MHz, vbios, board part, gpu part,
# inforom image, max link gen, numbers of SMs
MODELS = {
    "H800": dict(name="NVIDIA H800", dev=0x2324, subsys="17A610DE",
                 arch="Hopper", fb=81559, reserved=650, bar1=131072,
                 power=700, pmin=200, gfx=1980, mem=2619,
                 vbios="96.00.74.00.1C", board="692-2G520-0280-000",
                 gpupart="2324-885-A1", inforom="G520.0280.00.05",
                 gen=5, serial_prefix="1654", temp=(33, 45)),
    "H100-SXM": dict(name="NVIDIA H100 80GB HBM3", dev=0x2330,
                     subsys="16C110DE", arch="Hopper", fb=81559,
                     reserved=650, bar1=131072, power=700, pmin=200,
                     gfx=1980, mem=2619, vbios="96.00.99.00.01",
                     board="692-2G520-0200-000", gpupart="2330-885-A1",
                     inforom="G520.0200.00.05", gen=5, serial_prefix="1652",
                     temp=(30, 41)),
    "A800": dict(name="NVIDIA A800-SXM4-80GB", dev=0x20F3, subsys="147F10DE",
                 arch="Ampere", fb=81920, reserved=869, bar1=131072,
                 power=400, pmin=100, gfx=1410, mem=1593,
                 vbios="92.00.80.00.09", board="692-2G506-0212-002",
                 gpupart="20F3-895-A1", inforom="G506.0212.00.02",
                 gen=4, serial_prefix="1323", temp=(29, 38)),
    "A10": dict(name="NVIDIA A10", dev=0x2236, subsys="148210DE",
                arch="Ampere", fb=23028, reserved=507, bar1=32768,
                power=150, pmin=100, gfx=1695, mem=6251,
                vbios="94.02.5C.00.02", board="900-2G133-0000-000",
                gpupart="2236-892-A1", inforom="G133.0500.00.05",
                gen=4, serial_prefix="1322", temp=(31, 0)),
    "A100-SXM": dict(name="NVIDIA A100-SXM4-80GB", dev=0x20B2,
                     subsys="147F10DE", arch="Ampere", fb=81920,
                     reserved=869, bar1=131072, power=400, pmin=100,
                     gfx=1410, mem=1593, vbios="92.00.36.00.02",
                     board="692-2G506-0212-002", gpupart="20B2-895-A1",
                     inforom="G506.0212.00.01", gen=4, serial_prefix="1650",
                     temp=(27, 36)),
}

NVSWITCH_DEV = {"Hopper": 0x22A3, "Ampere": 0x1AF1}
NVSWITCH_COUNT = {"Hopper": 4, "Ampere": 6}


class Gpu:
    def __init__(self, seed, index, model_key, bus, minor=None):
        self.index = index
        self.model_key = model_key
        self.m = MODELS[model_key]
        self.bus = bus.lower()                      # "1b"
        self.minor = index if minor is None else minor
        self.uuid = "GPU-" + uuid_from(seed, "gpu", index)
        self.serial = self.m["serial_prefix"] + "%09d" % (
            int(hexid(seed, "serial", index, n=10), 16) % 10**9)
        self.irq = 0
        self.module_id = index + 1
        self.mig = None   # list of (profile, gi, ci, uuid) when MIG is on
        self.mig_mode = "Disabled"
        self.lost = False

    @property
    def sysfs_id(self):
        return "0000:%s:00.0" % self.bus

    @property
    def smi_id(self):
        return "00000000:%s:00.0" % self.bus.upper()

    @property
    def nvrm_id(self):
        return "PCI:0000:%s:00" % self.bus


def make_gpus(seed, model_key, buses, minors=None):
    return [Gpu(seed, i, model_key, b, (minors or {}).get(i))
            for i, b in enumerate(buses)]


# --------------------------------------------------------------------------
# nvidia-smi -L
def smi_list(gpus, skip_lost=True):
    lines = []
    idx = 0
    for g in gpus:
        if g.lost:
            lines.append("Unable to determine the device handle for GPU%s: "
                         "GPU is lost.  Reboot the system to recover this GPU"
                         % g.smi_id[4:])
            continue
        lines.append("GPU %d: %s (UUID: %s)" % (idx, g.m["name"], g.uuid))
        if g.mig:
            for n, (prof, gi, ci, muuid) in enumerate(g.mig):
                lines.append("  MIG %-12sDevice %2d: (UUID: %s)" % (prof, n, muuid))
        idx += 1
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# nvidia-smi -q -x
def smi_xml(gpus, driver, cuda, timestamp, persistence=True, fabric=None,
            processes=None):
    """fabric: None (PCIe: N/A) or dict gpu_index -> (state, status)."""
    present = [g for g in gpus if not g.lost]
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">',
           '<nvidia_smi_log>',
           '    <timestamp>%s</timestamp>' % timestamp,
           '    <driver_version>%s</driver_version>' % driver,
           '    <cuda_version>%s</cuda_version>' % cuda,
           '    <attached_gpus>%d</attached_gpus>' % len(gpus)]
    for g in present:
        fab = (fabric or {}).get(g.index, ("N/A", "N/A"))
        out.append(gpu_xml(g, driver, persistence, fab,
                           (processes or {}).get(g.index, [])))
        out.append("")
    out.append("</nvidia_smi_log>")
    return "\n".join(out) + "\n"


def _mig_devices_xml(g):
    if not g.mig:
        return "        <mig_devices>\n            None\n        </mig_devices>"
    prof_sm = {"1g.10gb": (16, 1, 9728), "2g.20gb": (32, 2, 19968),
               "3g.40gb": (60, 3, 40192), "7g.80gb": (132, 7, 80896),
               "1g.20gb": (16, 1, 19968), "4g.40gb": (64, 4, 40192)}
    parts = ["        <mig_devices>"]
    for n, (prof, gi, ci, _) in enumerate(g.mig):
        sm, ce, mem = prof_sm.get(prof, (14, 1, 9728))
        parts.append("""            <mig_device>
                <index>%d</index>
                <gpu_instance_id>%d</gpu_instance_id>
                <compute_instance_id>%d</compute_instance_id>
                <device_attributes>
                    <shared>
                        <multiprocessor_count>%d</multiprocessor_count>
                        <copy_engine_count>%d</copy_engine_count>
                        <encoder_count>0</encoder_count>
                        <decoder_count>%d</decoder_count>
                        <ofa_count>0</ofa_count>
                        <jpg_count>%d</jpg_count>
                    </shared>
                </device_attributes>
                <ecc_error_count>
                    <volatile_count>
                        <sram_uncorrectable>0</sram_uncorrectable>
                    </volatile_count>
                </ecc_error_count>
                <fb_memory_usage>
                    <total>%d MiB</total>
                    <reserved>0 MiB</reserved>
                    <used>12 MiB</used>
                    <free>%d MiB</free>
                </fb_memory_usage>
                <bar1_memory_usage>
                    <total>32767 MiB</total>
                    <used>0 MiB</used>
                    <free>32767 MiB</free>
                </bar1_memory_usage>
            </mig_device>""" % (n, gi, ci, sm, ce, ce, ce, mem, mem - 13))
    parts.append("        </mig_devices>")
    return "\n".join(parts)


def gpu_xml(g, driver, persistence, fabric, processes):
    m = g.m
    temp, memtemp = m["temp"][0] + g.index % 4, m["temp"][1] + g.index % 3
    draw = m["power"] * 0.1 + 3.17 * (g.index % 5)
    used = 0 if not processes else sum(p[3] for p in processes)
    fb_free = m["fb"] - m["reserved"] - used - 4
    mig_on = g.mig_mode == "Enabled"
    if mig_on:
        remapped = "        <remapped_rows>N/A</remapped_rows>"
    else:
        remapped = """        <remapped_rows>
            <remapped_row_corr>0</remapped_row_corr>
            <remapped_row_unc>0</remapped_row_unc>
            <remapped_row_pending>No</remapped_row_pending>
            <remapped_row_failure>No</remapped_row_failure>
            <row_remapper_histogram>
                <row_remapper_histogram_max>%d bank(s)</row_remapper_histogram_max>
                <row_remapper_histogram_high>0 bank(s)</row_remapper_histogram_high>
                <row_remapper_histogram_partial>0 bank(s)</row_remapper_histogram_partial>
                <row_remapper_histogram_low>0 bank(s)</row_remapper_histogram_low>
                <row_remapper_histogram_none>0 bank(s)</row_remapper_histogram_none>
            </row_remapper_histogram>
        </remapped_rows>""" % (2560 if m["arch"] == "Hopper" else 640)
    if processes:
        procs = ["        <processes>"]
        for pid, ptype, pname, mib in processes:
            procs.append("""            <process_info>
                <gpu_instance_id>N/A</gpu_instance_id>
                <compute_instance_id>N/A</compute_instance_id>
                <pid>%d</pid>
                <type>%s</type>
                <process_name>%s</process_name>
                <used_memory>%d MiB</used_memory>
            </process_info>""" % (pid, ptype, pname, mib))
        procs.append("        </processes>")
        procs = "\n".join(procs)
    else:
        procs = "        <processes>\n        </processes>"
    clocks = supported_clocks(m)
    util = "N/A" if mig_on else "%d %%" % (0 if not processes else 87)
    memutil = "N/A" if mig_on else "%d %%" % (0 if not processes else 41)
    return """    <gpu id="{smi_id}">
        <product_name>{name}</product_name>
        <product_brand>NVIDIA</product_brand>
        <product_architecture>{arch}</product_architecture>
        <display_mode>Disabled</display_mode>
        <display_active>Disabled</display_active>
        <persistence_mode>{persist}</persistence_mode>
        <addressing_mode>None</addressing_mode>
        <mig_mode>
            <current_mig>{mig}</current_mig>
            <pending_mig>{mig}</pending_mig>
        </mig_mode>
{mig_devices}
        <accounting_mode>Disabled</accounting_mode>
        <accounting_mode_buffer_size>4000</accounting_mode_buffer_size>
        <driver_model>
            <current_dm>N/A</current_dm>
            <pending_dm>N/A</pending_dm>
        </driver_model>
        <serial>{serial}</serial>
        <uuid>{uuid}</uuid>
        <minor_number>{minor}</minor_number>
        <vbios_version>{vbios}</vbios_version>
        <multigpu_board>No</multigpu_board>
        <board_id>0x{board_id:x}</board_id>
        <board_part_number>{board}</board_part_number>
        <gpu_part_number>{gpupart}</gpu_part_number>
        <gpu_fru_part_number>N/A</gpu_fru_part_number>
        <gpu_module_id>{module}</gpu_module_id>
        <inforom_version>
            <img_version>{inforom}</img_version>
            <oem_object>2.1</oem_object>
            <ecc_object>7.16</ecc_object>
            <pwr_object>N/A</pwr_object>
        </inforom_version>
        <gpu_operation_mode>
            <current_gom>N/A</current_gom>
            <pending_gom>N/A</pending_gom>
        </gpu_operation_mode>
        <gsp_firmware_version>{driver}</gsp_firmware_version>
        <gpu_virtualization_mode>
            <virtualization_mode>None</virtualization_mode>
            <host_vgpu_mode>N/A</host_vgpu_mode>
        </gpu_virtualization_mode>
        <gpu_reset_status>
            <reset_required>No</reset_required>
            <drain_and_reset_recommended>No</drain_and_reset_recommended>
        </gpu_reset_status>
        <ibmnpu>
            <relaxed_ordering_mode>N/A</relaxed_ordering_mode>
        </ibmnpu>
        <pci>
            <pci_bus>{bus}</pci_bus>
            <pci_device>00</pci_device>
            <pci_domain>0000</pci_domain>
            <pci_device_id>{dev:04X}10DE</pci_device_id>
            <pci_bus_id>{smi_id}</pci_bus_id>
            <pci_sub_system_id>{subsys}</pci_sub_system_id>
            <pci_gpu_link_info>
                <pcie_gen>
                    <max_link_gen>{gen}</max_link_gen>
                    <current_link_gen>{gen}</current_link_gen>
                    <device_current_link_gen>{gen}</device_current_link_gen>
                    <max_device_link_gen>{gen}</max_device_link_gen>
                    <max_host_link_gen>{gen}</max_host_link_gen>
                </pcie_gen>
                <link_widths>
                    <max_link_width>16x</max_link_width>
                    <current_link_width>16x</current_link_width>
                </link_widths>
            </pci_gpu_link_info>
            <pci_bridge_chip>
                <bridge_chip_type>N/A</bridge_chip_type>
                <bridge_chip_fw>N/A</bridge_chip_fw>
            </pci_bridge_chip>
            <replay_counter>0</replay_counter>
            <replay_rollover_counter>0</replay_rollover_counter>
            <tx_util>0 KB/s</tx_util>
            <rx_util>0 KB/s</rx_util>
            <atomic_caps_inbound>N/A</atomic_caps_inbound>
            <atomic_caps_outbound>N/A</atomic_caps_outbound>
        </pci>
        <fan_speed>N/A</fan_speed>
        <performance_state>P0</performance_state>
        <clocks_event_reasons>
            <clocks_event_reason_gpu_idle>Active</clocks_event_reason_gpu_idle>
            <clocks_event_reason_applications_clocks_setting>Not Active</clocks_event_reason_applications_clocks_setting>
            <clocks_event_reason_sw_power_cap>Not Active</clocks_event_reason_sw_power_cap>
            <clocks_event_reason_hw_slowdown>Not Active</clocks_event_reason_hw_slowdown>
            <clocks_event_reason_hw_thermal_slowdown>Not Active</clocks_event_reason_hw_thermal_slowdown>
            <clocks_event_reason_hw_power_brake_slowdown>Not Active</clocks_event_reason_hw_power_brake_slowdown>
            <clocks_event_reason_sync_boost>Not Active</clocks_event_reason_sync_boost>
            <clocks_event_reason_sw_thermal_slowdown>Not Active</clocks_event_reason_sw_thermal_slowdown>
            <clocks_event_reason_display_clocks_setting>Not Active</clocks_event_reason_display_clocks_setting>
        </clocks_event_reasons>
        <fb_memory_usage>
            <total>{fb} MiB</total>
            <reserved>{reserved} MiB</reserved>
            <used>{fb_used} MiB</used>
            <free>{fb_free} MiB</free>
        </fb_memory_usage>
        <bar1_memory_usage>
            <total>{bar1} MiB</total>
            <used>1 MiB</used>
            <free>{bar1_free} MiB</free>
        </bar1_memory_usage>
        <cc_protected_memory_usage>
            <total>0 MiB</total>
            <used>0 MiB</used>
            <free>0 MiB</free>
        </cc_protected_memory_usage>
        <compute_mode>Default</compute_mode>
        <utilization>
            <gpu_util>{util}</gpu_util>
            <memory_util>{memutil}</memory_util>
            <encoder_util>0 %</encoder_util>
            <decoder_util>0 %</decoder_util>
            <jpeg_util>0 %</jpeg_util>
            <ofa_util>0 %</ofa_util>
        </utilization>
        <encoder_stats>
            <session_count>0</session_count>
            <average_fps>0</average_fps>
            <average_latency>0</average_latency>
        </encoder_stats>
        <fbc_stats>
            <session_count>0</session_count>
            <average_fps>0</average_fps>
            <average_latency>0</average_latency>
        </fbc_stats>
        <ecc_mode>
            <current_ecc>Enabled</current_ecc>
            <pending_ecc>Enabled</pending_ecc>
        </ecc_mode>
        <ecc_errors>
            <volatile>
                <sram_correctable>0</sram_correctable>
                <sram_uncorrectable>0</sram_uncorrectable>
                <dram_correctable>0</dram_correctable>
                <dram_uncorrectable>0</dram_uncorrectable>
            </volatile>
            <aggregate>
                <sram_correctable>0</sram_correctable>
                <sram_uncorrectable>0</sram_uncorrectable>
                <dram_correctable>0</dram_correctable>
                <dram_uncorrectable>0</dram_uncorrectable>
            </aggregate>
        </ecc_errors>
        <retired_pages>
            <multiple_single_bit_retirement>
                <retired_count>N/A</retired_count>
                <retired_pagelist>N/A</retired_pagelist>
            </multiple_single_bit_retirement>
            <double_bit_retirement>
                <retired_count>N/A</retired_count>
                <retired_pagelist>N/A</retired_pagelist>
            </double_bit_retirement>
            <pending_blacklist>N/A</pending_blacklist>
            <pending_retirement>N/A</pending_retirement>
        </retired_pages>
{remapped}
        <temperature>
            <gpu_temp>{temp} C</gpu_temp>
            <gpu_temp_tlimit>{tlimit} C</gpu_temp_tlimit>
            <gpu_temp_max_threshold>92 C</gpu_temp_max_threshold>
            <gpu_temp_slow_threshold>89 C</gpu_temp_slow_threshold>
            <gpu_temp_max_gpu_threshold>87 C</gpu_temp_max_gpu_threshold>
            <gpu_target_temperature>N/A</gpu_target_temperature>
            <memory_temp>{memtemp}</memory_temp>
            <gpu_temp_max_mem_threshold>95 C</gpu_temp_max_mem_threshold>
        </temperature>
        <supported_gpu_target_temp>
            <gpu_target_temp_min>N/A</gpu_target_temp_min>
            <gpu_target_temp_max>N/A</gpu_target_temp_max>
        </supported_gpu_target_temp>
        <gpu_power_readings>
            <power_state>P0</power_state>
            <power_draw>{draw:.2f} W</power_draw>
            <current_power_limit>{power:.2f} W</current_power_limit>
            <requested_power_limit>{power:.2f} W</requested_power_limit>
            <default_power_limit>{power:.2f} W</default_power_limit>
            <min_power_limit>{pmin:.2f} W</min_power_limit>
            <max_power_limit>{power:.2f} W</max_power_limit>
        </gpu_power_readings>
        <module_power_readings>
            <power_state>P0</power_state>
            <power_draw>N/A</power_draw>
            <current_power_limit>N/A</current_power_limit>
            <requested_power_limit>N/A</requested_power_limit>
            <default_power_limit>N/A</default_power_limit>
            <min_power_limit>N/A</min_power_limit>
            <max_power_limit>N/A</max_power_limit>
        </module_power_readings>
        <clocks>
            <graphics_clock>{gfx_now} MHz</graphics_clock>
            <sm_clock>{gfx_now} MHz</sm_clock>
            <mem_clock>{mem} MHz</mem_clock>
            <video_clock>{video} MHz</video_clock>
        </clocks>
        <applications_clocks>
            <graphics_clock>{gfx} MHz</graphics_clock>
            <mem_clock>{mem} MHz</mem_clock>
        </applications_clocks>
        <default_applications_clocks>
            <graphics_clock>{gfx} MHz</graphics_clock>
            <mem_clock>{mem} MHz</mem_clock>
        </default_applications_clocks>
        <deferred_clocks>
            <mem_clock>N/A</mem_clock>
        </deferred_clocks>
        <max_clocks>
            <graphics_clock>{gfx} MHz</graphics_clock>
            <sm_clock>{gfx} MHz</sm_clock>
            <mem_clock>{mem} MHz</mem_clock>
            <video_clock>{video_max} MHz</video_clock>
        </max_clocks>
        <max_customer_boost_clocks>
            <graphics_clock>{gfx} MHz</graphics_clock>
        </max_customer_boost_clocks>
        <clock_policy>
            <auto_boost>N/A</auto_boost>
            <auto_boost_default>N/A</auto_boost_default>
        </clock_policy>
        <voltage>
            <graphics_volt>{volt} mV</graphics_volt>
        </voltage>
        <fabric>
            <state>{fab_state}</state>
            <status>{fab_status}</status>
        </fabric>
{clocks}
{procs}
        <accounted_processes>
        </accounted_processes>
    </gpu>""".format(
        smi_id=g.smi_id, name=m["name"], arch=m["arch"],
        persist="Enabled" if persistence else "Disabled",
        mig=g.mig_mode if m["arch"] != "Turing" else "N/A",
        mig_devices=_mig_devices_xml(g), serial=g.serial, uuid=g.uuid,
        minor=g.minor, vbios=m["vbios"], board_id=int(g.bus, 16) << 8,
        board=m["board"], gpupart=m["gpupart"], module=g.module_id,
        inforom=m["inforom"], driver=driver,
        bus=g.bus.upper(), dev=m["dev"], subsys=m["subsys"], gen=m["gen"],
        fb=m["fb"], reserved=m["reserved"], fb_used=used + 4,
        fb_free=fb_free, bar1=m["bar1"], bar1_free=m["bar1"] - 1,
        util=util, memutil=memutil, remapped=remapped, temp=temp,
        tlimit=56 - temp % 7, memtemp=('%d C' % memtemp) if m['temp'][1] else 'N/A', draw=draw,
        power=float(m["power"]), pmin=float(m["pmin"]),
        gfx=m["gfx"], gfx_now=345 if not processes else m["gfx"],
        mem=m["mem"], video=765, video_max=1755 if m["arch"] == "Hopper" else 1290,
        volt="670.000" if m["arch"] == "Hopper" else "712.500",
        fab_state=fabric[0], fab_status=fabric[1], clocks=clocks,
        procs=procs)



def supported_clocks(m):
    lines = ["        <supported_clocks>",
             "            <supported_mem_clock>",
             "                <value>%d MHz</value>" % m["mem"]]
    f = m["gfx"]
    while f >= 210:
        lines.append("                <supported_graphics_clock>%d MHz</supported_graphics_clock>" % f)
        f -= 15
    lines += ["            </supported_mem_clock>", "        </supported_clocks>"]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# /proc/driver/nvidia
def proc_version(driver, builddate, gcc, open_module=False):
    if open_module:
        return ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  %s  "
                "Release Build  (dvs-builder@U16-I3-B03-4-3)  %s\n"
                "GCC version:  %s\n" % (driver, builddate, gcc))
    return ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  %s\n"
            "GCC version:  %s\n" % (driver, builddate, gcc))


def proc_information(g):
    return ("Model: \t\t %s\n"
            "IRQ:   \t\t %d\n"
            "GPU UUID: \t %s\n"
            "Video BIOS: \t %s\n"
            "Bus Type: \t PCIe\n"
            "DMA Size: \t 52 bits\n"
            "DMA Mask: \t 0xfffffffffffff\n"
            "Bus Location: \t %s\n"
            "Device Minor: \t %d\n"
            "GPU Excluded:\t No\n") % (g.m["name"], g.irq, g.uuid,
                                        g.m["vbios"].lower(), g.sysfs_id,
                                        g.minor)
