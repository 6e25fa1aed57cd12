 [bmprofile] arch=3
[bmprofile] net_name=synthetic_net
[bmprofile] tpu_freq=1000
[bmprofile] is_mlir=1
...Start Profile Log...
[bmprofile] start to run subnet_id=0
[bmprofile] local_layer: layer_id=0 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=1 gdma_dir=0 gdma_func=0
[bmprofile] local_layer: layer_id=1 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=2 gdma_dir=0 gdma_func=0
[bmprofile] local_layer: layer_id=2 layer_type=Load layer_name=
[bmprofile] gdma cmd_id bd_id=0 gdma_id=3 gdma_dir=0 gdma_func=0
[bmprofile] local_layer: layer_id=3 layer_type=Add layer_name=
[bmprofile] bd cmd_id bd_id=1 gdma_id=3 bd_func=3
[bmprofile] bd cmd_id bd_id=2 gdma_id=3 bd_func=3
[bmprofile] local_layer: layer_id=4 layer_type=Store layer_name=
[bmprofile] gdma cmd_id bd_id=2 gdma_id=4 gdma_dir=1 gdma_func=0
[bmprofile] global_layer: layer_id=5 layer_type=End layer_name=end
[bmprofile] bd cmd_id bd_id=3 gdma_id=0 bd_func=15
[bmprofile] gdma cmd_id bd_id=0 gdma_id=5 gdma_dir=0 gdma_func=6
[bmprofile] end to run subnet_id=0
[bmprofile] core_list=0,
[bmprofile] mtype=1 addr=4901421056 size=33554432 alloc=1 free=2 desc=bdc_perf_monitor
[bmprofile] mtype=1 addr=4952035328 size=268435456 alloc=1 free=2 desc=gdma_perf_monitor
