P[bmprofile] arch=4
[bmprofile] net_name=synthetic_net
[bmprofile] tpu_freq=0
[bmprofile] is_mlir=1
...Start Profile Log...
[bmprofile] start to run subnet_id=0
[bmprofile] local_layer: layer_id=10 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=0 gdma_dir=0 gdma_func=0 core=0
[bmprofile] local_layer: layer_id=11 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=0 gdma_dir=0 gdma_func=0 core=0
[bmprofile] local_layer: layer_id=12 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=0 gdma_dir=0 gdma_func=0 core=0
[bmprofile] local_layer: layer_id=13 layer_type=Conv2D layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=3 bd_func=0 core=0
[bmprofile] end to run subnet_id=0
[bmprofile] core_list=0,
[bmprofile] mtype=1 addr=4917370880 size=33554432 alloc=1 free=2 desc=bdc_perf_monitor
[bmprofile] mtype=1 addr=4950925312 size=268435456 alloc=1 free=2 desc=gdma_perf_monitor
