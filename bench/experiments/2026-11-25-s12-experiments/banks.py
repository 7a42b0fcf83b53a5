import math, itertools
def sim(NX,NY,PX,PY,pmod,deg,interleave=True):
    c,s=math.cos(math.radians(deg)),math.sin(math.radians(deg))
    TW,TH=NX*PX,NY*PY
    # pitch: estimate chunks
    w=(TW-1)*abs(c)+(TH-1)*abs(s)+3+8
    chunks=math.ceil(w/16); pitch=chunks*16+((pmod-chunks*16)%32)
    tot=0;n=0
    x0,y0=50.3,20.7
    nthreads=NX*NY
    for wbase in range(0,nthreads,32):
        for j in range(PY):
            for k in range(PX):
                banks={}
                for lane in range(32):
                    t=wbase+lane; lx,ly=t%NX,t//NX
                    ox=lx*PX+k; oy=(ly+NY*j) if interleave else ly*PY+j
                    u=x0+ox*c+oy*s; v=y0-ox*s+oy*c+TW*s
                    idx=int(math.floor(v))*pitch+int(math.floor(u))
                    banks.setdefault(idx%32,set()).add(idx)
                tot+=max(len(b) for b in banks.values()); n+=1
    return tot/n, pitch
for cfg in [(32,8,4,4),(32,4,4,8),(16,16,4,4),(16,8,4,8),(8,32,4,2),(32,8,2,4),(32,8,8,2),(16,16,8,2),(16,8,8,4),(8,8,8,8)]:
    res=[]
    for pm in range(0,32,4):
        a,p=sim(*cfg,pm,30); res.append("%d:%.2f"%(pm,a))
    print(cfg," ".join(res), " 45:", "%.2f"%sim(*cfg,4,45)[0], " 0:", "%.2f"%sim(*cfg,4,0)[0])
